package report

import (
	"errors"
	"math"
	"slices"
	"strconv"

	"github.com/shedsim/shedsim/sim"
)

// Advice is one thing to change, with what it did when this package ran it:
// every number in Text was measured on Config with the same seed.
type Advice struct {
	// Text says what to change and what it measured.
	Text string `json:"text"`
	// Config is the alternative that was run, for a "try it" button; c
	// itself when there is nothing to change.
	Config sim.Config `json:"config"`
	// Answered is the alternative's answered share of the sale's people
	// (0 when nobody arrived during the sale).
	Answered float64 `json:"answered"`
}

// earlyNo are the policies that say no before the timeout does.
var earlyNo = func() []sim.Policy {
	var out []sim.Policy
	for _, p := range sim.Policies {
		if p.RefusesEarly() {
			out = append(out, p)
		}
	}
	return out
}()

// Advise says what to change about c, given compared, c run under every
// policy (as Compare returns it). It runs what it quotes: the fewest
// workers that keep up and the most retries that still get back, each a
// goal-seek over AdviceSeeds seeds within the advice's budget (see
// AdviceMaxRuns), each setting's seeds over every core (sim.Runs); the
// fixed alternatives (no retries, an automatic bound, free refusals, a
// retry budget, spare workers) once each. An alternative that is not a
// valid Config is left out. It returns at least one item.
func Advise(c sim.Config, compared []sim.Result) ([]Advice, error) {
	return advise(c, compared, sim.Runs)
}

// AdviceRuns lists the runs Advise(c, compared) makes next, given those
// made so far (done, the Results of earlier lists, in any order), each a
// valid Config, so that a page can make them elsewhere (in its workers):
// first the fixed alternatives and each goal-seek's first setting at
// every seed, then, as long as a seek is searching, its next setting. It
// lists none once done holds every run the advice needs: then AdviseFrom
// says what Advise says. Which runs it lists depends on c, compared and
// done alone.
func AdviceRuns(c sim.Config, compared, done []sim.Result) ([]sim.Config, error) {
	var next []sim.Config
	_, err := advise(c, compared, func(cs []sim.Config) ([]sim.Result, error) {
		rs, missing := madeFrom(done, cs)
		if missing {
			next = append(next, cs...)
			return nil, errNotMade{}
		}
		return rs, nil
	})
	return next, err
}

// AdviseFrom is Advise with its runs made: done holds every run of
// AdviceRuns' lists, until it listed none. It runs nothing.
func AdviseFrom(c sim.Config, compared, done []sim.Result) ([]Advice, error) {
	var lacking bool
	out, err := advise(c, compared, func(cs []sim.Config) ([]sim.Result, error) {
		rs, missing := madeFrom(done, cs)
		if missing {
			lacking = true
			return nil, errNotMade{}
		}
		return rs, nil
	})
	if err == nil && lacking {
		err = errors.New("report: AdviseFrom needs every run AdviceRuns lists")
	}
	if err != nil {
		return nil, err
	}
	return out, nil
}

// errNotMade is a run AdviceRuns lists rather than makes.
type errNotMade struct{}

func (errNotMade) Error() string { return "report: a run not made yet" }

// madeFrom finds each of cs among done, by its Config as the engine ran
// it (sim.Config.Resolved); missing is true if any is not there.
func madeFrom(done []sim.Result, cs []sim.Config) (rs []sim.Result, missing bool) {
	for _, c := range cs {
		c = c.Resolved()
		for _, r := range done {
			if r.Config == c {
				rs = append(rs, r)
				break
			}
		}
	}
	return rs, len(rs) < len(cs)
}

// advise is Advise with runs making each batch of runs it asks for (an
// alternative, or a seek's setting at every seed), each a valid Config.
func advise(c sim.Config, compared []sim.Result, runs func([]sim.Config) ([]sim.Result, error)) ([]Advice, error) {
	if len(compared) != len(sim.Policies) {
		return nil, errors.New("report: Advise needs one result per policy, got " + strconv.Itoa(len(compared)))
	}
	cur := compared[c.Policy]
	if cur.Sale.People == 0 {
		return []Advice{{
			Text:   capital(fill("%s, and the shares are of those people, so there is nothing to compare: give the sale more people, with a longer sale or a higher rate.", Nobody(c))),
			Config: c,
		}}, nil
	}
	var out []Advice
	workers, retries := adviceSeeks(c, cur)
	// Each fixed alternative is run once (runOne): one that is not a valid
	// Config (more workers than allowed, a run over the budget) is not
	// advised, as there is no run to quote; nor is one that measured no
	// difference worth the change. (Straight code rather than a closure an
	// alternative: fewer bytes of the page's module.)
	var alt sim.Config
	var r sim.Result
	var ok bool

	// Capacity first, whenever it is short: no policy answers more people
	// than the workers can serve (the post: "Capacity sets the ceiling").
	if k := keepUp(c); workers.to > 0 {
		if a, ok := seekAdvice(c, k, workers, runs); ok {
			out = append(out, a)
		}
	} else if c.Workers < k.workers {
		capacity, rate := apart(k.capacity, k.rate, 2)
		alt = c
		alt.Workers = k.workers
		if r, ok = runOne(runs, alt); ok {
			out = append(out, Advice{Text: fill("Run %s workers, the fewest whose capacity%s (%s/s) is over %s: %s answered with this policy%s.",
				Count(k.workers), k.during, capacity, fill(k.words, rate), Percent(r.Sale.AnsweredShare), andRecovered(", ", r)), Config: alt, Answered: r.Sale.AnsweredShare})
		} else {
			// Too many workers to simulate (or a run over the budget): say
			// so, with the numbers, rather than nothing.
			now, rate := apart(c.CapacityRPS(), k.rate, 2)
			out = append(out, Advice{Text: fill("Add capacity: %s workers at %s serve %s/s, under %s; keeping up would take %s workers, more than this simulates (%s): make the work shorter, or the traffic lower.",
				Count(c.Workers), Duration(c.ServiceMS), now, fill(k.words, rate), Count(k.workers), Count(sim.MaxWorkers)),
				Config: c, Answered: cur.Sale.AnsweredShare})
		}
	}

	// The best early-no policy for this config, by answered share.
	best := compared[earlyNo[0]]
	for _, p := range earlyNo[1:] {
		if compared[p].Sale.AnsweredShare > best.Sale.AnsweredShare {
			best = compared[p]
		}
	}
	if best.Config.Policy != c.Policy && best.Sale.AnsweredShare > cur.Sale.AnsweredShare+0.01 {
		out = append(out, Advice{
			Text: fill("Switch to %s: %s of %s answered instead of %s, with a median wait of %s%s.",
				PolicyNoun(best.Config.Policy), Percent(best.Sale.AnsweredShare), SalePeople(c), Percent(cur.Sale.AnsweredShare),
				Millis(best.Sale.MedianWaitMS), andRecovered("; ", best)),
			Config: best.Config, Answered: best.Sale.AnsweredShare,
		})
	} else if fast := fastest(compared, cur); fast != nil && fast.Sale.AnsweredShare >= 0.5 {
		// (A quicker policy is worth naming only if it answers most
		// people: "0.0%, close to this policy's 0.0%" is no advice.)
		out = append(out, Advice{
			Text: fill("%s answers %s, close to this policy's %s, with a median wait of %s instead of %s.",
				capital(PolicyNoun(fast.Config.Policy)), Percent(fast.Sale.AnsweredShare), Percent(cur.Sale.AnsweredShare),
				Millis(fast.Sale.MedianWaitMS), Millis(cur.Sale.MedianWaitMS)),
			Config: fast.Config, Answered: fast.Sale.AnsweredShare,
		})
	}

	if c.LossWorkers > 0 && c.LossWorkers < c.Workers {
		// Spare workers, so that the loss leaves as many as there were.
		alt = c
		alt.Workers = c.Workers + c.LossWorkers
		if r, ok = runOne(runs, alt); ok && !same(r, cur) {
			out = append(out, Advice{Text: fill("Or keep %s spare: with %s workers the loss leaves the %s there were, and this policy answers %s%s.",
				strconv.Itoa(c.LossWorkers), strconv.Itoa(c.Workers+c.LossWorkers), strconv.Itoa(c.Workers), Percent(r.Sale.AnsweredShare), andRecovered(", ", r)), Config: alt, Answered: r.Sale.AnsweredShare})
		}
	}
	if retries.to > 0 {
		if a, ok := seekAdvice(c, need{}, retries, runs); ok {
			out = append(out, a)
		}
	} else if c.Retries > 0 {
		alt = c
		alt.Retries = 0
		if r, ok = runOne(runs, alt); ok && !same(r, cur) {
			text := fill("Retry less: with no retries this policy answers %s%s. With %s it answers %s%s.",
				Percent(r.Sale.AnsweredShare), andRecovered(" and is ", r), Retries(c.Retries), Percent(cur.Sale.AnsweredShare), andRecovered(" and is ", cur))
			if c.Client == sim.Fixed || c.Client == sim.Backoff {
				text += " A retry budget stops retries when they stop helping."
			}
			out = append(out, Advice{Text: text, Config: alt, Answered: r.Sale.AnsweredShare})
		}
	}
	if c.Retries > 0 && c.Client == sim.Fixed && notBack(cur) {
		alt = c
		alt.Client = sim.Budget
		if r, ok = runOne(runs, alt); ok && !(same(r, cur) && Number(r.AttemptsPerPerson, 2) == Number(cur.AttemptsPerPerson, 2)) {
			out = append(out, Advice{Text: fill("Give the clients a retry budget (a token bucket of %s, as the AWS SDKs keep): %s answered%s, %s instead of %s.",
				strconv.Itoa(c.BudgetTokens), Percent(r.Sale.AnsweredShare), andRecovered(" and ", r), AttemptsPerPerson(r.AttemptsPerPerson), Number(cur.AttemptsPerPerson, 2)), Config: alt, Answered: r.Sale.AnsweredShare})
		}
	}
	if c.Policy.Bounds() && c.HoldsTimeout() && c.Queue != 0 && cur.Sale.TimedOut > 0 {
		alt = c
		alt.Queue = 0
		// (Not when the automatic bound would answer no more.)
		if r, ok = runOne(runs, alt); ok && r.Sale.AnsweredShare > cur.Sale.AnsweredShare && Percent(r.Sale.AnsweredShare) != Percent(cur.Sale.AnsweredShare) {
			out = append(out, Advice{Text: fill("Bound the queue as a time: %s waiting hold %s of work against a %s timeout, so %s of %s still time out. The automatic %s (%s of work) answers %s.",
				Count(c.QueueBound()), Seconds(c.QueueSeconds()), Duration(c.TimeoutMS), Percent(cur.Sale.TimedOutShare), SalePeople(c),
				Count(r.Config.QueueBound()), Seconds(r.Config.QueueSeconds()), Percent(r.Sale.AnsweredShare)), Config: alt, Answered: r.Sale.AnsweredShare})
		}
	}
	if c.RefusalCostMS > 0 && c.Policy.Refuses() {
		alt = c
		alt.RefusalCostMS = 0
		// (Not when it answers as many, as the text quotes the answered share alone.)
		if r, ok = runOne(runs, alt); ok && Percent(r.Sale.AnsweredShare) != Percent(cur.Sale.AnsweredShare) {
			out = append(out, Advice{Text: fill("Make saying no cheap: each refusal takes a worker %s now, %s of their time %s. Shed before the expensive part, in the gateway or the handler's first lines, and %s are answered instead of %s.",
				Duration(c.RefusalCostMS), Percent(cur.Sale.RefusingShare), Arrived(c),
				Percent(r.Sale.AnsweredShare), Percent(cur.Sale.AnsweredShare)), Config: alt, Answered: r.Sale.AnsweredShare})
		}
	}
	if len(out) == 0 {
		// No early-no policy answers a point more (or "Switch to" would
		// have said so); the unbounded queue or skipping may, by never
		// saying no.
		most := cur
		for _, r := range compared {
			if r.Sale.AnsweredShare > most.Sale.AnsweredShare {
				most = r
			}
		}
		policy, share, who, isBack := PolicyNoun(c.Policy), Percent(cur.Sale.AnsweredShare), SalePeople(c), andRecovered(", and is ", cur)
		var text string
		switch {
		case notBack(cur) || cur.Sale.AnsweredShare < 0.5:
			// Never "nothing to change" for a run that is not back or that
			// answers under half its people: nothing here helped, which is
			// not the same.
			text = fill("No change this advice tries does better, and this is not a good run: %s answers %s of %s%s. Look at the traffic, the timeout and the work each request takes.",
				policy, share, who, andRecovered(", and is ", cur))
		case Percent(most.Sale.AnsweredShare) == share:
			text = fill("Nothing to change: %s answers %s of %s, as many as any policy here%s.", policy, share, who, isBack)
		case most.Sale.AnsweredShare > cur.Sale.AnsweredShare+0.01 && !slices.Contains(earlyNo, c.Policy):
			text = fill("No policy that says no early answers a point more than %s, with %s of %s%s. %s answers %s here.",
				policy, share, who, andRecovered(", and it is ", cur), capital(PolicyNoun(most.Config.Policy)), Percent(most.Sale.AnsweredShare))
		case most.Sale.AnsweredShare > cur.Sale.AnsweredShare+0.01:
			text = fill("Of the policies that say no early, %s answers about as many as any: %s of %s%s. %s answers more here, %s, but it never says no, so nothing holds it back in a bigger spike.",
				policy, share, who, isBack, capital(PolicyNoun(most.Config.Policy)), Percent(most.Sale.AnsweredShare))
		default:
			text = fill("Nothing to change: %s answers %s of %s, within a point of any other policy here%s.", policy, share, who, isBack)
		}
		out = append(out, Advice{Text: text, Config: c, Answered: cur.Sale.AnsweredShare})
	}
	return out, nil
}

// runOne runs alt, a fixed alternative, through runs: false if it is not
// a valid Config or not made yet.
func runOne(runs func([]sim.Config) ([]sim.Result, error), alt sim.Config) (sim.Result, bool) {
	if alt.Validate() != nil {
		return sim.Result{}, false
	}
	rs, err := runs([]sim.Config{alt})
	if err != nil {
		return sim.Result{}, false
	}
	return rs[0], true
}

// same says that r measured what cur did, as the advice prints it.
func same(r, cur sim.Result) bool {
	return Percent(r.Sale.AnsweredShare) == Percent(cur.Sale.AnsweredShare) && Recovered(r) == Recovered(cur)
}

// need is the capacity a Config lacks: the fewest workers whose capacity
// is over the highest arrival rate it has, and that rate in words, with
// "%s" for the rate ("the sale's %s/s").
type need struct {
	workers  int
	capacity float64 // what workers serve at that time, per second
	rate     float64
	words    string
	during   string // " with 3 lost", " during the slowdown", or ""
}

// keepUp is the fewest workers whose capacity stays over the arrivals at
// the worst time of c's run: the sale's rate during the sale and the
// normal rate the rest of the day (steady load, or a sale quieter than the
// day), with the workers a loss takes (loss_workers) added and the service
// a slowdown stretches (slow_factor) counted while they overlap that time:
// floor(rate x ServiceMS x slowdown / 1000) + 1 + lost (rule 21; 13 at the
// shop's numbers, where it is sim.Config.SuggestedWorkers).
func keepUp(c sim.Config) need {
	type phase struct {
		from, to, rate float64
		words          string
	}
	phases := []phase{{0, c.DurationS, c.NormalRPS, "the %s/s that arrive all day"}}
	if !NoSale(c) {
		phases = []phase{{c.SaleStartS, c.SaleEndS(), c.SaleRPS, "the sale's %s/s"},
			{0, c.SaleStartS, c.NormalRPS, "the normal %s/s"}, {c.SaleEndS(), c.DurationS, c.NormalRPS, "the normal %s/s"}}
	}
	overlaps := func(p phase, from, to float64) bool { return p.from < to && from < p.to }
	best := need{}
	for _, p := range phases {
		if p.to <= p.from {
			continue
		}
		ms, lost, during := c.ServiceMS, 0, ""
		if c.SlowFactor > 0 && overlaps(p, c.SlowStartS, c.SlowEndS()) {
			ms, during = float64(ms*c.SlowFactor), " during the slowdown"
		}
		if c.LossWorkers > 0 && overlaps(p, c.LossStartS, c.LossEndS()) {
			lost, during = c.LossWorkers, " with "+Count(c.LossWorkers)+" lost"+during
		}
		// Clamp before converting: a rate times an hour's service is far
		// past any int a platform agrees on.
		n := int(min(math.Floor(float64(p.rate*ms)/1000), 1e12)) + 1
		if n+lost > best.workers {
			best = need{n + lost, float64(n) * 1000 / ms, p.rate, p.words, during}
		}
	}
	return best
}

// andRecovered is sep and how r ended after the sale, for the end of a
// sentence ("; back to normal at once"), or nothing when nobody arrived
// after the sale to measure it by.
func andRecovered(sep string, r sim.Result) string {
	if r.Recovery == sim.Unmeasured {
		return ""
	}
	return sep + Recovered(r)
}

// fastest returns an early-no policy that answers within 3 points of cur
// with at most half cur's median wait, the quickest such; nil if none.
func fastest(compared []sim.Result, cur sim.Result) *sim.Result {
	if cur.Sale.MedianWaitMS == nil {
		return nil
	}
	var pick *sim.Result
	for _, p := range earlyNo {
		r := &compared[p]
		if p == cur.Config.Policy || r.Sale.MedianWaitMS == nil || r.Sale.AnsweredShare < cur.Sale.AnsweredShare-0.03 {
			continue
		}
		if *r.Sale.MedianWaitMS*2 > *cur.Sale.MedianWaitMS || Millis(r.Sale.MedianWaitMS) == Millis(cur.Sale.MedianWaitMS) {
			continue
		}
		if pick == nil || *r.Sale.MedianWaitMS < *pick.Sale.MedianWaitMS {
			pick = r
		}
	}
	return pick
}
