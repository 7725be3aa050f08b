package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"

	"github.com/shedsim/shedsim/sim"
	"github.com/shedsim/shedsim/sim/report"
	"github.com/shedsim/shedsim/sim/sweep"
)

// sweeps are the subcommands that run a Config over a range of values:
// "shedsim sweep", "shedsim map" and "shedsim seek".
var sweeps = map[string]func(args []string, stdout, stderr io.Writer) error{
	"sweep": runSweep,
	"map":   runMap,
	"seek":  runSeek,
}

// sweepFlags are what the three subcommands share: the Config as every
// flag of the model, --policy and --client as words, the seeds and the
// output's form.
type sweepFlags struct {
	fs           *flag.FlagSet
	name         string // "sweep", for messages
	c            sim.Config
	policy       string
	client       string
	seeds        int
	json, csv    bool
	set          map[string]bool
	flagOfField  map[string]string // a request's field ("x_knob") to its flag ("--x")
	requiredFlag []string
}

func newSweepFlags(name string) *sweepFlags {
	f := &sweepFlags{name: name, c: sim.DefaultConfig(), flagOfField: map[string]string{}}
	f.fs = flag.NewFlagSet("shedsim "+name, flag.ContinueOnError)
	f.fs.SetOutput(io.Discard)
	f.fs.Usage = func() {}
	f.fs.StringVar(&f.policy, "policy", "", "policy: "+orList(sim.PolicyKeys()))
	f.fs.StringVar(&f.client, "client", "", "how clients retry: fixed (the post's), backoff, budget, ratio, retry-after or throttle")
	configFlags(f.fs, &f.c)
	wholeVar(f.fs, &f.seeds, "seeds", 10, "seeds each setting runs, from --seed (the same seeds at every setting)")
	f.fs.BoolVar(&f.json, "json", false, "print what was measured as JSON")
	f.fs.BoolVar(&f.csv, "csv", false, "print what was measured as CSV, a row per setting")
	return f
}

// parse reads args; done is true when --help was asked for and printed.
func (f *sweepFlags) parse(args []string, stdout io.Writer, usageLine string) (done bool, err error) {
	if err := f.fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			var b strings.Builder
			b.WriteString("Usage: " + usageLine + "\n\nFlags (those of the model set the Config every setting starts from; a flag given twice takes its last value):\n")
			writeFlags(&b, f.fs)
			_, err := io.WriteString(stdout, b.String())
			return true, err
		}
		ue := parseError(err, f.fs, f.c.Validate)
		return false, usageError{f.name + ": " + ue.msg}
	}
	if f.fs.NArg() > 0 {
		return false, strayArgument(f.name, args, f.fs.Args())
	}
	f.set = givenFlags(f.fs)
	var missing []string
	for _, name := range f.requiredFlag {
		if !f.set[name] {
			missing = append(missing, "--"+name)
		}
	}
	switch {
	case len(missing) > 0:
		return false, usageError{f.name + ": " + strings.Join(missing, ", ") + " must be given (see --help)"}
	case f.set["spike"] && f.set["sale-rps"]:
		return false, usageError{f.name + ": --spike and --sale-rps are the same setting: give one"}
	case f.json && f.csv:
		return false, usageError{f.name + ": --json and --csv print different things: give one"}
	}
	if f.set["policy"] {
		p, err := sim.ParsePolicy(f.policy)
		if err != nil {
			return false, usageError{f.name + ": --policy: " + err.Error()}
		}
		f.c.Policy = p
	}
	if f.set["client"] {
		cl, err := sim.ParseClient(f.client)
		if err != nil {
			return false, usageError{f.name + ": --client: " + err.Error()}
		}
		f.c.Client = cl
	}
	return false, nil
}

// refuse turns a request's errors into one line that names each flag.
func (f *sweepFlags) refuse(err error) error {
	var at string
	if se := (*sweep.SettingError)(nil); errors.As(err, &se) {
		at = "at " + se.At + ": "
	}
	spell := flagSpelling(f.set)
	var parts []string
	for _, fe := range sim.FieldErrors(err) {
		name, ok := f.flagOfField[fe.Field]
		if !ok {
			name = spell(fe.Field, "")
		}
		msg := fe.Say(spell)
		if strings.HasSuffix(fe.Field, "knob") {
			// It lists knobs, which the command line writes as their flags
			// without the dashes in front: --knob sale-rps.
			msg = strings.ReplaceAll(msg, "_", "-")
		}
		if fe.Field == "goal" { // no one flag: the message names them
			parts = append(parts, msg)
			continue
		}
		parts = append(parts, name+": "+msg)
	}
	if len(parts) == 0 {
		return err // not the input's fault
	}
	return usageError{f.name + ": " + at + strings.Join(parts, "; ")}
}

// checkGiven refuses a model flag given for a field a knob varies (the
// knob's value replaces it at every setting), and one that counts for
// nothing (sim.Config.Unused) at every one of ends, the Configs at the
// range's ends: a setting that counts somewhere in the range is kept.
//
// knobs are the knobs as given, each after its flag: "--knob", "sale-rps".
// A knob that counts for nothing at every end is refused too.
func (f *sweepFlags) checkGiven(knobs [][2]string, scope sim.Scope, ends ...sim.Config) error {
	spell := flagSpelling(f.set)
	given := configKeysGiven(f.set)
	for _, key := range given {
		for _, kn := range knobs {
			if k, err := sweep.ParseKnob(kn[1]); err == nil && k.Key == key {
				return usageError{f.name + ": " + spell(key, "") + ": " + kn[0] + " " + flagName(k.Key) + " varies it; drop " + spell(key, "")}
			}
		}
	}
	var unusedEverywhere []error
	for _, kn := range knobs {
		k, err := sweep.ParseKnob(kn[1])
		if err != nil {
			continue
		}
		if fe := sweep.KnobUnused(k, scope, ends...); fe != nil {
			why, _, _ := strings.Cut(fe.Say(spell), ", or leave out")
			return usageError{f.name + ": " + kn[0] + " " + flagName(k.Key) + ": it changes nothing here: it " + why}
		}
	}
	for _, key := range given {
		var first error
		everywhere := true
		for _, c := range ends {
			err := c.Unused([]string{key}, scope)
			if err == nil {
				everywhere = false
				break
			}
			if first == nil {
				first = err
			}
		}
		if everywhere && first != nil {
			unusedEverywhere = append(unusedEverywhere, first)
		}
	}
	if len(unusedEverywhere) > 0 {
		return usageError{f.name + ": " + flagErrors(errors.Join(unusedEverywhere...), spell)}
	}
	return nil
}

// sweepProgress is a request's progress on stderr, as --seeds writes
// its own (see progress): shown only for a request expected to send more
// than progressAttempts, with base's runs standing for every setting's.
func sweepProgress(stderr io.Writer, base sim.Config) sweep.Progress {
	start := time.Now()
	var p *progress
	return func(done, total int) {
		if p == nil {
			p = newProgress(stderr, base, total)
			p.start, p.last = start, start
		}
		p.done(done - p.count)
	}
}

// runSweep is "shedsim sweep": one knob over a range, every policy (or
// --policy's), at every seed.
func runSweep(args []string, stdout, stderr io.Writer) error {
	f := newSweepFlags("sweep")
	knob := f.fs.String("knob", "", "the field that varies, as its flag: sale-rps, workers, retries, timeout-ms, ...")
	from, to, below, steps := new(float64), new(float64), new(float64), new(int)
	numberVar(f.fs, from, "from", 0, "the first value")
	numberVar(f.fs, to, "to", 0, "the last value")
	wholeVar(f.fs, steps, "steps", 11, "values from --from to --to, evenly spaced")
	shareVar(f.fs, below, "below", 0.5, "mark where the answered share falls below this (0.5 = half the sale; 0 marks nothing)")
	f.requiredFlag = []string{"knob", "from", "to"}
	if done, err := f.parse(args, stdout, "shedsim sweep --knob sale-rps --from 100 --to 250 [--steps 11 --seeds 10 --policy NAME] [--json | --csv]"); done || err != nil {
		return err
	}
	spec := sweep.Spec{Base: f.c, Knob: *knob, From: *from, To: *to, Steps: *steps, Seeds: f.seeds, Below: *below}
	if f.set["policy"] {
		spec.Policies = []sim.Policy{f.c.Policy}
	}
	if err := spec.Validate(); err != nil {
		return f.refuse(err)
	}
	k, _ := sweep.ParseKnob(spec.Knob) // valid: Validate said so
	if err := f.checkGiven([][2]string{{"--knob", spec.Knob}}, sim.Scope{EveryPolicy: !f.set["policy"]}, k.With(f.c, spec.From), k.With(f.c, spec.To)); err != nil {
		return err
	}
	spec.Progress = sweepProgress(stderr, f.c)
	sw, err := sweep.Run(spec)
	if err != nil {
		return f.refuse(err)
	}
	switch {
	case f.json:
		return writeJSON(stdout, sw)
	case f.csv:
		return writeSweepCSV(stdout, sw)
	}
	return writeSweep(stdout, sw)
}

// flagName is a setting's or a knob's flag: "sale-rps".
func flagName(key string) string { return strings.ReplaceAll(key, "_", "-") }

func writeSweep(w io.Writer, sw sweep.Sweep) error {
	s := sw.Spec
	var b strings.Builder
	b.WriteString(report.SweepCaption(sw, flagName(s.Knob)) + "\n")
	// The step at the base Config's own value, if there is one, is marked:
	// where the configuration is now, against where it tips.
	k, err := sweep.ParseKnob(s.Knob)
	if err != nil {
		return err
	}
	now := k.Get(s.Base)
	groups := report.CurveGroups(sw) // the post's six apart from the limits
	for i, cv := range sw.Curves {
		if len(groups) > 0 && groups[0].From == i {
			fmt.Fprintf(&b, "\n%s\n%s\n", strings.ToUpper(groups[0].Title), strings.Repeat("=", len(groups[0].Title)))
			groups = groups[1:]
		}
		fmt.Fprintf(&b, "\n%s\n", cv.Policy.Title())
		t := report.Table{Header: []string{flagName(s.Knob), "Answered", "Refused", "Timed out", "p99 wait", "Recovery", ""}, TextColumns: 1}
		for i, o := range cv.Steps {
			mark := ""
			if sw.Values[i] == now {
				mark = "<- now"
			}
			t.Rows = append(t.Rows, []string{report.KnobValue(sw.Values[i]), report.ShareSpread(o.Answered), report.ShareSpread(o.Refused), report.ShareSpread(o.TimedOut), report.WaitSpread(o.P99WaitMS), report.Recoveries(o), mark})
		}
		if _, err := t.WriteTo(&b); err != nil {
			return err
		}
		if len(cv.Flips)+len(cv.Crossings) > 0 {
			b.WriteString("\n")
		}
		for _, line := range report.SweepMarks(cv, s.Below) {
			b.WriteString(line + "\n")
		}
	}
	_, err = io.WriteString(w, b.String())
	return err
}

// csvFloat writes a number for CSV: as short as round-trips, "" for none.
func csvFloat(x float64, ok bool) string {
	if !ok {
		return ""
	}
	return strconv.FormatFloat(x, 'g', -1, 64)
}

// outcomeHeader and outcomeCSV are an Outcome's columns.
var outcomeHeader = []string{"seeds", "answered_mean", "answered_sd", "refused_mean", "refused_sd", "timed_out_mean", "timed_out_sd",
	"p99_wait_ms_mean", "p99_wait_ms_sd", "p99_queue_wait_ms_mean", "p99_queue_wait_ms_sd", "waited_mean", "waited_sd", "normal", "backlog", "stuck", "overloaded", "throttled", "unmeasured"}

func outcomeCSV(o sweep.Outcome) []string {
	stat := func(s sweep.Stat) []string { return []string{csvFloat(s.Mean, s.N > 0), csvFloat(s.SD, s.N > 0)} }
	row := []string{strconv.Itoa(o.Seeds)}
	row = append(row, stat(o.Answered)...)
	row = append(row, stat(o.Refused)...)
	row = append(row, stat(o.TimedOut)...)
	row = append(row, stat(o.P99WaitMS)...)
	row = append(row, stat(o.P99QueueWaitMS)...)
	row = append(row, stat(o.Waited)...)
	r := o.Recovery
	for _, n := range []int{r.Normal, r.Backlog, r.Stuck, r.Overloaded, r.Throttled, r.Unmeasured} {
		row = append(row, strconv.Itoa(n))
	}
	return row
}

// writeCSV writes rows of plain cells (numbers and keys, which need no
// quoting).
func writeCSV(w io.Writer, rows [][]string) error {
	var b strings.Builder
	for _, r := range rows {
		b.WriteString(strings.Join(r, ",") + "\n")
	}
	_, err := io.WriteString(w, b.String())
	return err
}

func writeSweepCSV(w io.Writer, sw sweep.Sweep) error {
	rows := [][]string{append([]string{"policy", sw.Spec.Knob}, outcomeHeader...)}
	for _, cv := range sw.Curves {
		for i, o := range cv.Steps {
			rows = append(rows, append([]string{cv.Policy.String(), csvFloat(sw.Values[i], true)}, outcomeCSV(o)...))
		}
	}
	return writeCSV(w, rows)
}

// runMap is "shedsim map": two knobs for one policy, each cell the seeds
// that recovered after the sale and the answered share.
func runMap(args []string, stdout, stderr io.Writer) error {
	f := newSweepFlags("map")
	var axes [2]sweep.Axis
	for i, a := range []string{"x", "y"} {
		dir := "across"
		if a == "y" {
			dir = "down"
		}
		f.fs.StringVar(&axes[i].Knob, a, "", "the knob "+dir+", as its flag: sale-rps, retries, timeout-ms, ...")
		numberVar(f.fs, &axes[i].From, a+"-from", 0, "--"+a+"'s first value")
		numberVar(f.fs, &axes[i].To, a+"-to", 0, "--"+a+"'s last value")
		wholeVar(f.fs, &axes[i].Steps, a+"-steps", 6, "--"+a+"'s values, evenly spaced")
		f.flagOfField[a+"_knob"] = "--" + a
		f.requiredFlag = append(f.requiredFlag, a, a+"-from", a+"-to")
	}
	if done, err := f.parse(args, stdout, "shedsim map --x sale-rps --x-from 100 --x-to 250 --y retries --y-from 0 --y-to 3 [--x-steps 6 --y-steps 6 --seeds 10 --policy NAME] [--json | --csv]"); done || err != nil {
		return err
	}
	spec := sweep.MapSpec{Base: f.c, X: axes[0], Y: axes[1], Seeds: f.seeds}
	if err := spec.Validate(); err != nil {
		return f.refuse(err)
	}
	kx, _ := sweep.ParseKnob(spec.X.Knob) // valid: Validate said so
	ky, _ := sweep.ParseKnob(spec.Y.Knob)
	var corners []sim.Config
	for _, x := range []float64{spec.X.From, spec.X.To} {
		for _, y := range []float64{spec.Y.From, spec.Y.To} {
			corners = append(corners, kx.With(ky.With(f.c, y), x))
		}
	}
	if err := f.checkGiven([][2]string{{"--x", spec.X.Knob}, {"--y", spec.Y.Knob}}, sim.Scope{}, corners...); err != nil {
		return err
	}
	spec.Progress = sweepProgress(stderr, f.c)
	m, err := sweep.RunMap(spec)
	if err != nil {
		return f.refuse(err)
	}
	switch {
	case f.json:
		return writeJSON(stdout, m)
	case f.csv:
		return writeMapCSV(stdout, m)
	}
	return writeMap(stdout, m)
}

func writeMap(w io.Writer, m sweep.Map) error {
	s := m.Spec
	var b strings.Builder
	b.WriteString(report.MapCaption(m, flagName(s.X.Knob), flagName(s.Y.Knob), "down") + "\n\n")
	t := report.Table{Header: []string{flagName(s.Y.Knob) + " \\ " + flagName(s.X.Knob)}, TextColumns: 1}
	for _, x := range m.Xs {
		t.Header = append(t.Header, report.KnobValue(x))
	}
	for j, row := range m.Cells {
		cells := []string{report.KnobValue(m.Ys[j])}
		for _, o := range row {
			cells = append(cells, report.MapCell(o))
		}
		t.Rows = append(t.Rows, cells)
	}
	if _, err := t.WriteTo(&b); err != nil {
		return err
	}
	// The page's sentence under its map: what recovered and what was
	// answered, in the same words.
	b.WriteString("\n" + report.MapSentence(m) + "\n")
	_, err := io.WriteString(w, b.String())
	return err
}

func writeMapCSV(w io.Writer, m sweep.Map) error {
	s := m.Spec
	rows := [][]string{append([]string{s.X.Knob, s.Y.Knob}, outcomeHeader...)}
	for j, row := range m.Cells {
		for i, o := range row {
			rows = append(rows, append([]string{csvFloat(m.Xs[i], true), csvFloat(m.Ys[j], true)}, outcomeCSV(o)...))
		}
	}
	return writeCSV(w, rows)
}

// runSeek is "shedsim seek": the smallest or largest value of a knob that
// meets a goal over the seeds.
func runSeek(args []string, stdout, stderr io.Writer) error {
	f := newSweepFlags("seek")
	smallest := f.fs.String("smallest", "", "find the smallest value of this knob that meets the goal: workers, queue, ...")
	largest := f.fs.String("largest", "", "find the largest value of this knob that meets the goal: sale-rps, retries, ...")
	from, to, step := new(float64), new(float64), new(float64)
	numberVar(f.fs, from, "from", 0, "the range's low end")
	numberVar(f.fs, to, "to", 0, "the range's high end")
	numberVar(f.fs, step, "step", 0, "the resolution (0: 1 for a whole number, else a power of ten near a hundredth of the range)")
	var goal sweep.Goal
	shareVar(f.fs, &goal.Answered, "answered", 0, "goal: at least this mean share of the sale answered (0.9 = 90%)")
	shareVar(f.fs, &goal.Back, "back", 0, "goal: at least this share of seeds back to normal (0.95 = 95%)")
	numberVar(f.fs, &goal.P99WaitMS, "p99-wait-ms", 0, "goal: at most this mean p99 wait, ms: the time to an answer, service included, as the tables' p99 wait (never below the service's own p99)")
	numberVar(f.fs, &goal.P99QueueWaitMS, "p99-queue-wait-ms", 0, "goal: at most this mean p99 wait in the queue, ms, service left out: the planner's p99 queue wait (shedsim plan)")
	shareVar(f.fs, &goal.Waited, "waited", 0, "goal: at most this mean share of the sale's requests waiting at all (0.05 = 5%, Erlang C's target)")
	f.requiredFlag = []string{"from", "to"}
	if done, err := f.parse(args, stdout, "shedsim seek (--smallest workers | --largest sale-rps) --from 1 --to 40 [--answered 0.9 --back 0.95 --p99-wait-ms 0 --p99-queue-wait-ms 0 --waited 0 --step 0 --seeds 10 --policy NAME] [--json | --csv]"); done || err != nil {
		return err
	}
	spec := sweep.SeekSpec{Base: f.c, From: *from, To: *to, Step: *step, Seeds: f.seeds, Goal: goal}
	switch {
	case f.set["smallest"] == f.set["largest"]:
		return usageError{"seek: give one of --smallest KNOB and --largest KNOB"}
	case f.set["smallest"]:
		spec.Knob, f.flagOfField["knob"] = *smallest, "--smallest"
	default:
		spec.Knob, spec.Largest, f.flagOfField["knob"] = *largest, true, "--largest"
	}
	if err := spec.Validate(); err != nil {
		return f.refuse(err)
	}
	k, _ := sweep.ParseKnob(spec.Knob) // valid: Validate said so
	if err := f.checkGiven([][2]string{{f.flagOfField["knob"], spec.Knob}}, sim.Scope{}, k.With(f.c, spec.From), k.With(f.c, spec.To)); err != nil {
		return err
	}
	spec.Progress = sweepProgress(stderr, f.c)
	a, err := sweep.Seek(spec)
	if err != nil {
		return f.refuse(err)
	}
	switch {
	case f.json:
		return writeJSON(stdout, a)
	case f.csv:
		return writeSeekCSV(stdout, a)
	}
	return writeSeek(stdout, a)
}

// byValue is the probes in the knob's order.
func byValue(ps []sweep.Probe) []sweep.Probe {
	out := append([]sweep.Probe(nil), ps...)
	for i := 1; i < len(out); i++ {
		for j := i; j > 0 && out[j].Value < out[j-1].Value; j-- {
			out[j], out[j-1] = out[j-1], out[j]
		}
	}
	return out
}

func writeSeek(w io.Writer, a sweep.Answer) error {
	s := a.Spec
	var b strings.Builder
	fmt.Fprintf(&b, "%s, searching %s from %s to %s; otherwise %s.\n\n%s\n\n", s.Base.Policy.Title(), flagName(s.Knob), report.KnobValue(s.From), report.KnobValue(s.To), report.DescribeBase(s.Base), a.Says())
	t := report.Table{Header: []string{flagName(s.Knob), "Goal", "Answered", "p99 wait", "Recovery"}, TextColumns: 2}
	waited := s.Goal.Waited > 0 // Erlang C's measure, with the planner's two decimals
	if waited {
		t.Header = append(t.Header, "Waiting")
	}
	queue := s.Goal.P99QueueWaitMS > 0 // the planner's p99, in the queue
	if queue {
		t.Header = append(t.Header, "p99 queue wait")
	}
	t.Header = append(t.Header, "Misses")
	for _, p := range byValue(a.Probes) {
		meets := "met"
		if !p.Meets() {
			meets = "missed"
		}
		row := []string{report.KnobValue(p.Value), meets, report.ShareSpread(p.Outcome.Answered), report.WaitSpread(p.Outcome.P99WaitMS), report.Recoveries(p.Outcome)}
		if waited {
			cell := "-" // nobody in the sale was answered in any seed
			if w := p.Outcome.Waited; w.N > 0 {
				cell = strconv.FormatFloat(w.Mean*100, 'f', 2, 64) + " ± " + strconv.FormatFloat(w.SD*100, 'f', 2, 64) + "%"
			}
			row = append(row, cell)
		}
		if queue {
			row = append(row, report.WaitSpread(p.Outcome.P99QueueWaitMS))
		}
		t.Rows = append(t.Rows, append(row, strings.Join(p.Misses, ", ")))
	}
	t.Header[len(t.Header)-1] = ""
	if _, err := t.WriteTo(&b); err != nil {
		return err
	}
	_, err := io.WriteString(w, b.String())
	return err
}

func writeSeekCSV(w io.Writer, a sweep.Answer) error {
	rows := [][]string{append([]string{a.Spec.Knob, "meets"}, outcomeHeader...)}
	for _, p := range byValue(a.Probes) {
		rows = append(rows, append([]string{csvFloat(p.Value, true), strconv.FormatBool(p.Meets())}, outcomeCSV(p.Outcome)...))
	}
	return writeCSV(w, rows)
}
