package adapter

import (
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/shedsim/shedsim/sim"
	"github.com/shedsim/shedsim/sim/report"
)

// ConfigFromStrings is a Config from the form: base with each value in
// vals set, each read as its field wants it (a number, a whole number, a
// policy key), then validated, and checked against the page budget for
// runs runs. Keys in ignore are not Config keys but are expected (such as
// "sample"). It returns every problem it finds, in the order of the
// fields. The form holds every setting, so none is refused for counting
// for nothing; for values given one by one, use ConfigFromGiven.
func ConfigFromStrings(base sim.Config, vals map[string]string, runs int, ignore ...string) (sim.Config, []FieldMsg) {
	return configFrom(base, stringValues(vals), runs, nil, ignore...)
}

// ConfigFromGiven is ConfigFromStrings for settings given explicitly, one
// by one (a URL's keys, an element's attributes): a setting given a value
// other than base's that would count for nothing in the runs of scope is
// refused too, naming the setting that would make it count
// (sim.Config.Unused).
func ConfigFromGiven(base sim.Config, vals map[string]string, runs int, scope sim.Scope, ignore ...string) (sim.Config, []FieldMsg) {
	return configFrom(base, stringValues(vals), runs, &scope, ignore...)
}

// UnusedGiven is what ConfigFromGiven adds to ConfigFromStrings: the
// settings in vals (given one by one, such as a URL's keys) that would
// count for nothing in the runs of scope on base, each with the setting
// that would make it count. It is nil when every one counts, and when a
// value cannot be read or is out of range, which the form reports itself.
func UnusedGiven(base sim.Config, vals map[string]string, scope sim.Scope) []FieldMsg {
	q := map[string]string{}
	for k, v := range vals {
		if _, ok := FieldByKey(k); ok {
			q[k] = v
		}
	}
	c, errs := configFrom(base, stringValues(q), 1, nil)
	if len(errs) > 0 {
		return nil
	}
	return SimErrors(c.Unused(changed(base, c, stringValues(q)), scope), nil)
}

// PageStart is what the simulator page starts from, given its address's
// query q (ParseQuery): the form's values (PageValues) and the link's own
// problems, each named by its key: a sample that is none, and the
// settings it gives that count for nothing in the page's runs. A value
// the form cannot read is not among them: the form marks it, as it marks
// one typed.
func PageStart(q map[string]string) (vals map[string]string, problems []FieldMsg) {
	base := sim.DefaultConfig()
	if s, ok := sim.SampleByKey(q["sample"]); ok {
		base = s.Config
	}
	problems = append(SampleProblem(q["sample"]), UnusedGiven(base, q, sim.Scope{EveryPolicy: true, Series: true})...)
	return PageValues(q), problems
}

// SampleProblem is the problem of a sample's key given (by an address, an
// attribute) that is no sample's, read as sim.SampleByKey reads one; none
// for a sample's key or for none at all.
func SampleProblem(key string) []FieldMsg {
	if _, ok := sim.SampleByKey(key); ok || key == "" {
		return nil
	}
	return []FieldMsg{{"sample", Scalar{text: key, quoted: true}.Show() + " is not a sample: use one of " + strings.Join(sim.SampleKeys(), ", ") +
		", or leave it out for the shop's numbers"}}
}

// PageValues is the page's form for a URL query: its sample's Config, or
// the default, with each Config key the query gives, and the seeds.
func PageValues(q map[string]string) map[string]string {
	c := sim.DefaultConfig()
	if s, ok := sim.SampleByKey(q["sample"]); ok {
		c = s.Config
	}
	vals := ConfigStrings(c)
	for k, v := range q {
		if _, ok := FieldByKey(k); ok {
			vals[k] = v
		}
	}
	return WithSeeds(vals, q)
}

// changed are the keys of vals whose value in c differs from base's: the
// settings given explicitly. A key given its base value is not counted as
// given, so that a whole Config (a Result's config, passed back to
// shedsim.run) reads back, every setting in it, counted or not.
func changed[V any](base, c sim.Config, vals map[string]V) []string {
	var out []string
	for _, f := range configFields {
		if _, ok := vals[f.Key]; ok && f.get(c) != f.get(base) {
			out = append(out, f.Key)
		}
	}
	return out
}

func stringValues(vals map[string]string) map[string]Scalar {
	sv := make(map[string]Scalar, len(vals))
	for k, v := range vals {
		sv[k] = Scalar{text: v, quoted: true}
	}
	return sv
}

// configFrom is base with vals set, validated and held to the page's
// budget for runs runs; with a scope, the settings given that would count
// for nothing in it are refused as well.
func configFrom(base sim.Config, vals map[string]Scalar, runs int, scope *sim.Scope, ignore ...string) (sim.Config, []FieldMsg) {
	c := base
	errs, clamped := applyConfig(&c, vals, ignore...)
	for _, e := range SimErrors(c.Validate(), errs) {
		s, ok := vals[e.Field]
		switch {
		case ok && slices.Contains(clamped, e.Field):
			// Validate names the number set held the value to; name the
			// one given: "1e308 is out of range", not "1,000,000,000,...".
			if _, rest, cut := strings.Cut(e.Msg, " is "); cut {
				e.Msg = s.Show() + " is " + rest
			}
		case ok && strings.HasSuffix(strings.TrimSpace(s.text), "%"):
			e.Msg = inPercent(s.Show(), e.Msg)
		}
		errs = append(errs, e)
	}
	if len(errs) == 0 && scope != nil {
		errs = SimErrors(c.Unused(changed(base, c, vals), *scope), nil)
	}
	if len(errs) == 0 {
		if e := budget(c, runs); e != nil {
			errs = append(errs, *e)
		}
	}
	return c, errs
}

// decodeConfig reads a Config from the API's argument, starting from
// sim.DefaultConfig so that a missing key keeps its default; numbers may be
// given as numbers or as strings. A setting it gives a value other than
// the default's is given explicitly, so if it would count for nothing in
// scope it is refused.
func decodeConfig(in Input, runs int, scope sim.Scope) (sim.Config, []FieldMsg, error) {
	if in.err != nil {
		return sim.Config{}, nil, in.err
	}
	c, errs := configFrom(sim.DefaultConfig(), in.Vals, runs, &scope)
	return c, errs, nil
}

// budget checks that c is no longer than PageMaxDurationS and that runs
// runs of it fit in PageBudget, and if not names the field to change: for
// the budget, the one that contributes most, the one of sale_rps,
// normal_rps, duration_s and retries whose return to its default would
// cut the run the most.
func budget(c sim.Config, runs int) *FieldMsg {
	if c.DurationS > PageMaxDurationS {
		return &FieldMsg{"duration_s", "a run of " + report.Seconds(c.DurationS) + " is longer than the page draws, at most " +
			report.Seconds(PageMaxDurationS) + " (" + report.Count(PageMaxDurationS/10) + " windows of 10 s), which keeps the page from freezing: " +
			"shorten it, or run it with the command line, shedsim --duration-s, which has no such limit"}
	}
	total := c.ExpectedAttempts() * float64(runs)
	if total <= float64(PageBudget) {
		return nil
	}
	d := sim.DefaultConfig()
	type option struct {
		field string
		alt   sim.Config
	}
	alts := []option{{"sale_rps", c}, {"normal_rps", c}, {"duration_s", c}, {"retries", c}}
	alts[0].alt.SaleRPS = min(c.SaleRPS, d.SaleRPS)
	alts[1].alt.NormalRPS = min(c.NormalRPS, d.NormalRPS)
	alts[2].alt.DurationS = max(min(c.DurationS, d.DurationS), c.SaleEndS()+10)
	alts[3].alt.Retries = min(c.Retries, d.Retries)
	best, bestN := alts[0].field, math.Inf(1)
	for _, a := range alts {
		if n := a.alt.ExpectedAttempts(); n < bestN {
			best, bestN = a.field, n
		}
	}
	what := "run"
	if runs > 1 {
		what = "comparison of " + strconv.Itoa(runs) + " runs"
	}
	return &FieldMsg{best, "this " + what + " would simulate about " + report.Count(int(total)) + " attempts, over the page's budget of " +
		report.Count(PageBudget) + ", which keeps the page from freezing: lower " + best +
		" (the biggest contributor), or run it with the command line, shedsim --" + strings.ReplaceAll(best, "_", "-") + ", which allows " +
		report.Count(sim.MaxAttempts) + " attempts a run"}
}
