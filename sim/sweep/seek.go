package sweep

import (
	"errors"
	"math"
	"strconv"
	"strings"

	"github.com/shedsim/shedsim/sim"
	"github.com/shedsim/shedsim/sim/bisect"
)

// Goal is what a setting must achieve over the seeds, each over their
// mean (or, for Back, their count). A zero field sets no goal.
type Goal struct {
	// Answered is the least mean share of the sale answered (0.9 = 90%).
	Answered float64 `json:"answered,omitempty"`
	// Back is the least share of seeds back to normal (0.95 = 95%).
	Back float64 `json:"back,omitempty"`
	// P99WaitMS is the most mean p99 wait of the sale's answered people,
	// the time to an answer, service included, in milliseconds (the
	// tables' p99 wait): never below the service's own p99.
	P99WaitMS float64 `json:"p99_wait_ms,omitempty"`
	// P99QueueWaitMS is the most mean p99 wait in the queue of the sale's
	// attempts served, service left out, in milliseconds: the planner's
	// p99 wait (plan.Row.P99QueueWaitMS).
	P99QueueWaitMS float64 `json:"p99_queue_wait_ms,omitempty"`
	// Waited is the most mean share of the sale's attempts that wait in
	// the queue at all (0.05 = 5%; Erlang C's target: see sim/plan).
	Waited float64 `json:"waited,omitempty"`
}

// errors checks g, naming its fields "answered", "back" and "p99_wait_ms".
func (g Goal) errors() error {
	var errs []error
	share := func(field string, x float64, what string) {
		if !(x >= 0 && x <= 1) {
			errs = append(errs, &sim.FieldError{Field: field, Msg: num(x) + " is out of range: use a share from 0 to 1 (" + what + "), or 0 for no goal"})
		}
	}
	share("answered", g.Answered, "0.9 is 90% of the sale answered")
	share("back", g.Back, "0.95 is 95% of the seeds back to normal")
	share("waited", g.Waited, "0.05 is 5% of the sale's requests waiting at all")
	for _, w := range []struct {
		field string
		x     float64
	}{{"p99_wait_ms", g.P99WaitMS}, {"p99_queue_wait_ms", g.P99QueueWaitMS}} {
		if !(w.x >= 0 && w.x <= 86_400_000) {
			errs = append(errs, &sim.FieldError{Field: w.field, Msg: num(w.x) + " is out of range: use a wait from 0 to 86,400,000 ms (a day), or 0 for no goal"})
		}
	}
	if len(errs) == 0 && g == (Goal{}) {
		errs = append(errs, sim.NewFieldError("goal", "no goal is set: give at least one of {answered}, {back}, {p99_wait_ms}, {p99_queue_wait_ms} and {waited}"))
	}
	return errors.Join(errs...)
}

// misses lists the goals o does not meet, as phrases.
func (g Goal) misses(o Outcome) []string {
	var out []string
	if g.Answered > 0 && !(o.Answered.N > 0 && o.Answered.Mean >= g.Answered) {
		out = append(out, "answered under "+goalPercent(g.Answered))
	}
	if g.Back > 0 && !(float64(o.Back()) >= float64(g.Back*float64(o.Seeds))-1e-9) {
		out = append(out, "back in under "+goalPercent(g.Back)+" of seeds")
	}
	if g.P99WaitMS > 0 && !(o.P99WaitMS.N > 0 && o.P99WaitMS.Mean <= g.P99WaitMS) {
		out = append(out, "p99 wait over "+num(g.P99WaitMS)+" ms")
	}
	if g.P99QueueWaitMS > 0 && !(o.P99QueueWaitMS.N > 0 && o.P99QueueWaitMS.Mean <= g.P99QueueWaitMS) {
		out = append(out, "p99 queue wait over "+num(g.P99QueueWaitMS)+" ms")
	}
	if g.Waited > 0 && !(o.Waited.N > 0 && o.Waited.Mean <= g.Waited) {
		out = append(out, "over "+goalPercent(g.Waited)+" waiting")
	}
	return out
}

// String is the goal as a phrase: "at least 90% of the sale answered and
// at least 95% of seeds back to normal".
func (g Goal) String() string {
	var parts []string
	if g.Answered > 0 {
		parts = append(parts, "at least "+goalPercent(g.Answered)+" of the sale answered")
	}
	if g.Back > 0 {
		parts = append(parts, "at least "+goalPercent(g.Back)+" of seeds back to normal")
	}
	if g.P99WaitMS > 0 {
		parts = append(parts, "a p99 wait of at most "+num(g.P99WaitMS)+" ms")
	}
	if g.P99QueueWaitMS > 0 {
		parts = append(parts, "a p99 wait in the queue of at most "+num(g.P99QueueWaitMS)+" ms")
	}
	if g.Waited > 0 {
		parts = append(parts, "at most "+goalPercent(g.Waited)+" of the sale's requests waiting at all")
	}
	return join(parts, "and")
}

// SeekSpec is a goal-seek: the smallest (or, with Largest, the largest)
// value of a knob in a range whose setting meets Goal over Seeds seeds.
//
// It assumes the goal is monotone in the knob over the range, as theory
// says it is for the worker count (more capacity), the retries and the
// sale rate (more load), and as a bounded queue's answered share is up to
// a timeout's worth of work: for Smallest, once a value meets the goal
// every larger one does; for Largest, every smaller one. It then bisects:
// about log2 of the range's steps settings, each at every seed. The answer
// is measured to meet the goal, and its neighbour one Step beyond it to
// miss it, at the same seeds; where the assumption fails (a noisy goal
// met, then missed, then met), another value may meet it too.
type SeekSpec struct {
	// Base is the Config every setting starts from; its Seed is the first
	// of the seeds, its Policy the one that runs.
	Base sim.Config `json:"base"`
	// Knob is the field searched, by JSON key ("workers"; see ParseKnob).
	Knob string `json:"knob"`
	// Largest seeks the largest value that meets the goal (the most
	// retries, the largest sale); false seeks the smallest (the fewest
	// workers, the smallest bound).
	Largest bool `json:"largest"`
	// From and To are the range searched, From below To, both in it.
	From float64 `json:"from"`
	To   float64 `json:"to"`
	// Step is the resolution: the values tried are From + k x Step up to
	// To. 0 picks one: 1 for a whole knob, else the largest power of ten
	// at most a hundredth of the range.
	Step float64 `json:"step"`
	// Seeds is how many seeds each setting runs, from Base.Seed.
	Seeds int `json:"seeds"`
	// Goal is what the setting must achieve.
	Goal Goal `json:"goal"`
	// Progress, if set, hears as the runs of each setting finish; its
	// total is the most runs the search can take.
	Progress Progress `json:"-"`
}

// Probe is one setting a goal-seek measured.
type Probe struct {
	Value   float64 `json:"value"`
	Outcome Outcome `json:"outcome"`
	// Misses are the goals it does not meet (none: it meets the goal).
	Misses []string `json:"misses"`
}

// Meets reports whether the probe meets the goal.
func (p Probe) Meets() bool { return len(p.Misses) == 0 }

// Answer is what a goal-seek found.
type Answer struct {
	Spec SeekSpec `json:"spec"`
	// Found is whether some value in the range meets the goal.
	Found bool `json:"found"`
	// Value is the answer, when Found.
	Value float64 `json:"value"`
	// At is the probe of the answer, when Found; when not, the probe of
	// the range's best end (To for Smallest, From for Largest), which
	// misses.
	At Probe `json:"at"`
	// Beside is the probe one Step beyond the answer (one step less for
	// Smallest, one more for Largest), which misses the goal; nil when the
	// answer is the range's end, so that nothing beyond it was measured,
	// or when nothing was found.
	Beside *Probe `json:"beside"`
	// Other is the probe of the range's other end (From for Smallest, To
	// for Largest) when nothing was found: a claim that no value works is
	// made only once both ends are measured. Nil when something was found.
	Other *Probe `json:"other"`
	// Reversed is whether, nothing found, Other meets the goal: the goal
	// gets easier in the other direction (more workers, not fewer), so
	// the seek asked for the wrong end (Largest for Smallest, or the
	// reverse) and its answer is the other end's.
	Reversed bool `json:"reversed"`
	// Probes are every setting measured, in the order they were.
	Probes []Probe `json:"probes"`
}

// grid is the seek's values: From + k x step for k = 0..n-1.
type grid struct {
	from, step float64
	n          int
	to         float64
}

func (g grid) value(k int) float64 {
	if k == g.n-1 {
		return g.to
	}
	return g.from + float64(float64(k)*g.step)
}

// MaxSeekSteps is the most values a goal-seek's range may hold at its
// Step: bisection measures about log2 of it, so this allows a fine
// resolution over a wide range.
const MaxSeekSteps = 1 << 20

// check validates s and returns its knob and grid.
func (s SeekSpec) check() (Knob, grid, error) {
	k, err := ParseKnob(s.Knob)
	if err == nil {
		if msg := k.checkBase(s.Base); msg != "" {
			err = sim.NewFieldError("knob", msg)
		}
	}
	if err != nil {
		return k, grid{}, errors.Join(err, s.Goal.errors(), seedsFrom(s.Base, s.Seeds))
	}
	var errs []error
	for _, end := range []struct {
		field string
		x     float64
	}{{"from", s.From}, {"to", s.To}} {
		if msg := k.checkValue(end.x); msg != "" {
			errs = append(errs, sim.NewFieldError(end.field, msg))
		}
	}
	step := s.Step
	if len(errs) == 0 {
		switch {
		case !(s.From < s.To):
			errs = append(errs, sim.NewFieldError("to", num(s.To)+" is not above {from}, "+num(s.From)+": give the range low to high ({largest} chooses the direction)"))
		case step == 0 && k.Whole:
			step = 1
		case step == 0:
			step = powerOfTenBelow((s.To - s.From) / 100)
		}
	}
	if msg := k.checkValue(step); len(errs) == 0 && (msg != "" || !(step > 0)) {
		if msg == "" {
			msg = num(step) + " is not above 0"
		}
		errs = append(errs, sim.NewFieldError("step", msg+": use a step above 0, or 0 to have one picked"))
	}
	errs = append(errs, s.Goal.errors(), seedsFrom(s.Base, s.Seeds))
	if err := errors.Join(errs...); err != nil {
		return k, grid{}, err
	}
	span := (s.To - s.From) / step
	if span >= MaxSeekSteps {
		return k, grid{}, &sim.FieldError{Field: "step", Msg: num(step) + " makes " + count(span) + " values from " + num(s.From) + " to " + num(s.To) +
			": use a step of at least " + num((s.To-s.From)/(MaxSeekSteps-1))}
	}
	g := grid{from: s.From, step: step, n: int(math.Floor(span+1e-9)) + 1, to: s.To}
	if last := s.From + float64(float64(g.n-1)*step); math.Abs(last-s.To) > 1e-9*math.Max(1, math.Abs(s.To)) {
		g.n++ // To itself is tried too, past the last whole step
	}
	lo, hi := k.With(s.Base, s.From), k.With(s.Base, s.To)
	if err := settingsErrors([]sim.Config{lo, hi}, k.Label); err != nil {
		return k, grid{}, err
	}
	// ExpectedAttempts is monotone in any one field (linear in the rates,
	// the duration and the retries), so the range's ends bound every
	// setting's.
	most := max(lo.ExpectedAttempts(), hi.ExpectedAttempts())
	probes := bisect.MostProbes(g.n)
	worst := make([]sim.Config, probes)
	for i := range worst {
		worst[i] = lo
		if hi.ExpectedAttempts() == most {
			worst[i] = hi
		}
	}
	if err := budget(worst, s.Seeds, "up to "+strconv.Itoa(probes)+" settings"); err != nil {
		return k, grid{}, err
	}
	return k, g, nil
}

// powerOfTenBelow is the largest power of ten at most x (x > 0), by
// multiplying and dividing by ten rather than math.Pow and math.Log10,
// which differ in the last bits between platforms: the same step, and so
// the same settings, everywhere.
func powerOfTenBelow(x float64) float64 {
	p := 1.0
	for p > x && p > 1e-300 {
		p /= 10
	}
	for p*10 <= x && p < 1e300 {
		p *= 10
	}
	return p
}

// Validate checks the SeekSpec without running it: the knob, the range
// and step, the goal, the seeds, both ends' Configs and the budget, which
// counts the most settings the search can measure.
func (s SeekSpec) Validate() error {
	_, _, err := s.check()
	return err
}

// Seek searches the range for the smallest (or largest) value that meets
// the goal, by a bisect.Search over its values, each measured at every seed
// over every core (sim.Runs).
func Seek(s SeekSpec) (Answer, error) {
	k, g, err := s.check()
	if err != nil {
		return Answer{}, err
	}
	ans := Answer{Spec: s}
	ans.Spec.Step = g.step
	b := bisect.New(g.n, s.Largest)
	probed := map[int]Probe{}
	done, total := 0, bisect.MostProbes(g.n)*s.Seeds
	for i, more := b.Next(); more; i, more = b.Next() {
		v := g.value(i)
		c := k.With(s.Base, v)
		outs, err := measure([]sim.Config{c}, s.Base.Seed, s.Seeds, nil, nil)
		if err != nil {
			return Answer{}, &SettingError{At: k.Label(c), Err: err}
		}
		p := Probe{Value: v, Outcome: outs[0], Misses: s.Goal.misses(outs[0])}
		if p.Misses == nil {
			p.Misses = []string{}
		}
		probed[i] = p
		ans.Probes = append(ans.Probes, p)
		b.Take(p.Meets())
		done += s.Seeds
		if s.Progress != nil {
			s.Progress(done, total)
		}
	}
	at, beside, found, _ := b.Edge()
	ans.Found, ans.At = found, probed[at]
	if found {
		ans.Value = ans.At.Value
	} else {
		// The best end missed. Before claiming that no value works,
		// measure the other end too: a goal that gets easier the other way
		// (more workers asked for with Largest) meets it there.
		other := 0
		if s.Largest {
			other = g.n - 1
		}
		p, ok := probed[other]
		if !ok {
			v := g.value(other)
			c := k.With(s.Base, v)
			outs, err := measure([]sim.Config{c}, s.Base.Seed, s.Seeds, nil, nil)
			if err != nil {
				return Answer{}, &SettingError{At: k.Label(c), Err: err}
			}
			p = Probe{Value: v, Outcome: outs[0], Misses: s.Goal.misses(outs[0])}
			if p.Misses == nil {
				p.Misses = []string{}
			}
			ans.Probes = append(ans.Probes, p)
			done += s.Seeds
			if s.Progress != nil {
				s.Progress(done, total)
			}
		}
		ans.Other, ans.Reversed = &p, p.Meets()
	}
	if beside >= 0 {
		pb := probed[beside]
		ans.Beside = &pb
	}
	return ans, nil
}

// Says is the answer in a sentence that quotes what was measured either
// side: "The fewest workers with at least 90% of the sale answered ...
// over seeds 1 to 40: 19 workers: back in 40 of 40 seeds, 97.1% answered;
// 18 workers: back in 31 of 40 seeds, 88.0% answered."
func (a Answer) Says() string {
	k, err := ParseKnob(a.Spec.Knob)
	if err != nil {
		return err.Error()
	}
	s := a.Spec
	seeds := "seeds " + strconv.FormatUint(s.Base.Seed, 10) + " to " + strconv.FormatUint(s.Base.Seed+uint64(s.Seeds)-1, 10)
	if s.Seeds == 1 {
		seeds = "seed " + strconv.FormatUint(s.Base.Seed, 10)
	}
	quote := func(p Probe) string {
		return k.Label(k.With(s.Base, p.Value)) + ": " + p.Outcome.summary(s.Goal.Waited > 0, s.Goal.P99QueueWaitMS > 0)
	}
	if a.Reversed && a.Other != nil {
		flag := "--largest"
		if s.Largest {
			flag = "--smallest"
		}
		return superlative(k, s.Largest) + " with " + s.Goal.String() + " over " + seeds + " cannot be sought from " + num(s.From) + " to " + num(s.To) +
			": " + quote(a.At) + " (" + join(a.At.Misses, "and") + "), but " + quote(*a.Other) +
			". This goal gets easier with " + easier(k, s.Largest) + ": use " + flag + " " + strings.ReplaceAll(k.Key, "_", "-") + " to find " + strings.Replace(superlative(k, !s.Largest), "The ", "the ", 1) + " that meets it."
	}
	if !a.Found {
		end := "beyond " + num(s.To)
		if s.Largest {
			end = "below " + num(s.From)
		}
		even := "even " + quote(a.At) + " (" + join(a.At.Misses, "and") + ")"
		if a.Other != nil && a.Other.Value != a.At.Value {
			even = "neither end does: " + quote(a.At) + " (" + join(a.At.Misses, "and") + "); " + quote(*a.Other) + " (" + join(a.Other.Misses, "and") + ")"
		}
		return "No value of " + k.Name() + " from " + num(s.From) + " to " + num(s.To) + " gives " + s.Goal.String() + " over " + seeds +
			"; " + even + ". Widen the range " + end + ", or ask less" +
			" (the search assumes the goal only gets easier towards that end; a bounded queue over a timeout's worth of work, for one, answers fewer, not more)."
	}
	head := superlative(k, s.Largest) + " with " + s.Goal.String() + " over " + seeds + ": " + quote(a.At)
	if a.Beside == nil {
		edge := "below " + num(s.From)
		if s.Largest {
			edge = "beyond " + num(s.To)
		}
		return head + ". It is the range's end: widen it " + edge + " to find where it stops."
	}
	return head + "; " + quote(*a.Beside) + " (" + join(a.Beside.Misses, "and") + ")."
}

// superlative is what a seek finds: "The fewest workers", "The most
// retries", "The smallest bound", "The largest sale_rps".
func superlative(k Knob, largest bool) string {
	if k.Hop != "" {
		return superlative(Knob{Key: k.Key, Whole: k.Whole}, largest) + " at " + k.Hop
	}
	switch {
	case k.Key == "workers" && !largest:
		return "The fewest workers"
	case k.Key == "workers":
		return "The most workers"
	case k.Key == "retries" && largest:
		return "The most retries"
	case k.Key == "retries":
		return "The fewest retries"
	case k.Key == "queue" && largest:
		return "The largest bound"
	case k.Key == "queue":
		return "The smallest bound"
	case largest:
		return "The largest " + k.Key
	}
	return "The smallest " + k.Key
}

// easier is which way a goal gets easier, after "with": "more workers",
// "fewer retries", "a larger bound", "a smaller sale_rps".
func easier(k Knob, larger bool) string {
	if k.Hop != "" {
		return easier(Knob{Key: k.Key, Whole: k.Whole}, larger) + " at " + k.Hop
	}
	switch {
	case k.Key == "workers" && larger:
		return "more workers"
	case k.Key == "workers":
		return "fewer workers"
	case k.Key == "retries" && larger:
		return "more retries"
	case k.Key == "retries":
		return "fewer retries"
	case k.Key == "queue" && larger:
		return "a larger bound"
	case k.Key == "queue":
		return "a smaller bound"
	case larger:
		return "a larger " + k.Key
	}
	return "a smaller " + k.Key
}

// summary is an outcome in a phrase: "back in 31 of 40 seeds, 88.0%
// answered, p99 wait 1,204 ms".
//
// The waited share is quoted only when the goal is on it (wantWaited), and
// with two decimals, as Erlang C's planner quotes it; the p99 wait in the
// queue, only when the goal is on it (wantQueue).
func (o Outcome) summary(wantWaited, wantQueue bool) string {
	s := "back in " + strconv.Itoa(o.Back()) + " of " + strconv.Itoa(o.Seeds) + " seeds"
	if o.Answered.N > 0 {
		s += ", " + percent(o.Answered.Mean) + " answered"
	}
	if o.P99WaitMS.N > 0 {
		s += ", p99 wait " + num(math.Round(o.P99WaitMS.Mean)) + " ms"
	}
	if o.P99QueueWaitMS.N > 0 && wantQueue {
		s += ", p99 queue wait " + num(math.Round(o.P99QueueWaitMS.Mean)) + " ms"
	}
	if o.Waited.N > 0 && wantWaited {
		s += ", " + strconv.FormatFloat(math.Round(o.Waited.Mean*10000)/100, 'f', 2, 64) + "% waiting"
	}
	return s
}

// goalPercent writes a goal's share with what decimals it has: 0.9 is
// "90%", 0.955 "95.5%".
func goalPercent(x float64) string {
	return strconv.FormatFloat(math.Round(x*10000)/100, 'f', -1, 64) + "%"
}

// percent writes a share with one decimal: 0.0756 is "7.6%".
func percent(x float64) string {
	return strconv.FormatFloat(math.Round(x*1000)/10, 'f', 1, 64) + "%"
}

// join joins phrases: "a", "a and b", "a, b and c".
func join(parts []string, and string) string {
	switch len(parts) {
	case 0:
		return ""
	case 1:
		return parts[0]
	}
	return strings.Join(parts[:len(parts)-1], ", ") + " " + and + " " + parts[len(parts)-1]
}
