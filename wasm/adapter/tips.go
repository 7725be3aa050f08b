package adapter

import (
	"encoding/json"
	"errors"
	"maps"
	"strings"

	"github.com/shedsim/shedsim/sim"
	"github.com/shedsim/shedsim/sim/sweep"
)

// This file is the adapter of "Where it tips", the page's sweeps and maps
// (tips_js.go draws them): their settings read from the form, the URL or
// a widget's attributes, each problem named by its key, and a worker's
// measure of one setting. A sweep or a map is held to sim/sweep's budgets
// (sweep.MaxAttempts, MaxRuns, MaxCells), each of its runs to the page's
// (PageBudget, PageMaxDurationS).

// The two kinds of the tips page and widget.
const (
	TipsSweep = "sweep"
	TipsMap   = "map"
)

// AllPolicies is the sweep's value of policy for every policy, a curve
// each.
const AllPolicies = "all"

// sweepKeys and mapKeys are a sweep's and a map's own settings, in the
// order of the form and the address; policy and the base Config's keys
// follow them.
var (
	sweepKeys = []string{"knob", "from", "to", "steps", "seeds", "below"}
	mapKeys   = []string{"x", "x_from", "x_to", "x_steps", "y", "y_from", "y_to", "y_steps", "seeds"}
)

// tipsDefaults are each kind's own settings when none are given: the
// issue's sweep of the sale rate (31 steps, every policy, 10 seeds, marked
// where under half the sale is answered) and the README's map of the sale
// rate against retries for the unbounded queue.
var tipsDefaults = map[string]map[string]string{
	TipsSweep: {"knob": "sale_rps", "from": "100", "to": "250", "steps": "31", "seeds": "10", "below": "0.5", "policy": AllPolicies},
	TipsMap: {"x": "sale_rps", "x_from": "100", "x_to": "250", "x_steps": "7", "y": "retries", "y_from": "0", "y_to": "3", "y_steps": "4",
		"seeds": "10", "policy": "fifo"},
}

// TipsKeysOf is kind's own keys, then policy.
func TipsKeysOf(kind string) []string {
	if kind == TipsMap {
		return append(append([]string(nil), mapKeys...), "policy")
	}
	return append(append([]string(nil), sweepKeys...), "policy")
}

// TipsValues is kind's settings from given (an address's query or a
// widget's attributes): its defaults, then every Config key's default (or
// the sample's that given names), with each key given.
func TipsValues(kind string, given map[string]string) map[string]string {
	vals := maps.Clone(Defaults)
	if s, ok := sim.SampleByKey(given["sample"]); ok {
		vals = ConfigStrings(s.Config)
	}
	maps.Copy(vals, tipsDefaults[kind])
	for _, k := range append(TipsKeysOf(kind), configKeys...) {
		if v, ok := given[k]; ok {
			vals[k] = v
		}
	}
	return vals
}

// TipsQuery is vals as the tips page's address: kind unless it is the
// sweep, kind's own keys, then the Config's, each left out at its default.
func TipsQuery(kind string, vals map[string]string) string {
	d := maps.Clone(Defaults)
	maps.Copy(d, tipsDefaults[kind])
	d["kind"] = TipsSweep
	v := maps.Clone(vals)
	v["kind"] = kind
	keys := append([]string{"kind"}, TipsKeysOf(kind)...)
	for _, k := range configKeys {
		if k != "policy" {
			keys = append(keys, k)
		}
	}
	return EncodeQuery(keys, v, d)
}

// tipsBase is the base Config of vals, every problem named by its key, and
// whether vals asks for every policy (a sweep's policy=all).
func tipsBase(kind string, vals map[string]string) (sim.Config, bool, []FieldMsg) {
	cv := map[string]string{}
	for _, k := range configKeys {
		if v, ok := vals[k]; ok {
			cv[k] = v
		}
	}
	every := kind == TipsSweep && strings.EqualFold(strings.TrimSpace(cv["policy"]), AllPolicies)
	if every {
		delete(cv, "policy")
	}
	c, errs := ConfigFromStrings(sim.DefaultConfig(), cv, 1)
	for i, e := range errs {
		if e.Field == "policy" && kind == TipsSweep {
			errs[i].Msg += ", or all for every policy"
		}
	}
	return c, every, errs
}

// tipsNumber reads vals[key] as kind k into *dst (a float64 or an int),
// or adds what is wrong with it to errs.
func tipsNumber(vals map[string]string, key string, k kind, example string, dst any, errs *[]FieldMsg) {
	x, i, _, msg := parseNumber(Scalar{text: vals[key], quoted: true}, k, example)
	if msg != "" {
		*errs = append(*errs, FieldMsg{key, msg})
		return
	}
	switch d := dst.(type) {
	case *float64:
		*d = x
	case *int:
		*d = int(min(max(i, -1<<31), 1<<31-1))
	}
}

// tipsEnds checks the Config at each end of a knob's range, keyFrom and
// keyTo, so that a range that leaves the field's own range, or the page's
// budget for a run, is named at the end that does: "from: 0 is out of
// range: use a whole number from 1 to 100,000".
func tipsEnds(base sim.Config, knob string, ends [2]float64, keys [2]string) []FieldMsg {
	k, err := sweep.ParseKnob(knob)
	if err != nil {
		return nil // the knob's own message says so
	}
	var errs []FieldMsg
	for i, v := range ends {
		c := k.With(base, v)
		fes := sim.FieldErrors(c.Validate())
		switch {
		case len(fes) > 0 && fes[0].Field == k.Key:
			errs = append(errs, FieldMsg{keys[i], fes[0].Msg})
		case len(fes) > 0:
			errs = append(errs, FieldMsg{keys[i], "at " + k.Label(c) + ", " + fes[0].Field + " " + fes[0].Msg})
		default:
			if e := budget(c, 1); e != nil {
				errs = append(errs, FieldMsg{keys[i], "at " + k.Label(c) + ", " + e.Msg})
			}
		}
	}
	return errs
}

// requestErrors lists a Spec's or a MapSpec's refusal by field: a setting
// whose Config does not validate, at its value, as a problem of the whole
// request.
func requestErrors(err error) []FieldMsg {
	if se := (*sweep.SettingError)(nil); errors.As(err, &se) {
		return []FieldMsg{{"", se.Error()}}
	}
	return SimErrors(err, nil)
}

// SweepFromStrings is the sweep of the page's values (TipsValues of
// TipsSweep): every problem, named by its key.
func SweepFromStrings(vals map[string]string) (sweep.Spec, []FieldMsg) {
	base, every, errs := tipsBase(TipsSweep, vals)
	s := sweep.Spec{Base: base, Knob: vals["knob"]}
	if _, err := sweep.ParseKnob(s.Knob); err != nil {
		errs = append(errs, SimErrors(err, nil)...)
	}
	tipsNumber(vals, "from", kindFloat, "100", &s.From, &errs)
	tipsNumber(vals, "to", kindFloat, "250", &s.To, &errs)
	tipsNumber(vals, "steps", kindInt, "31", &s.Steps, &errs)
	tipsNumber(vals, "seeds", kindInt, "10", &s.Seeds, &errs)
	tipsNumber(vals, "below", kindShare, "0.5", &s.Below, &errs)
	if !every {
		s.Policies = []sim.Policy{base.Policy}
	}
	if len(errs) > 0 {
		return s, errs
	}
	if errs = tipsEnds(base, s.Knob, [2]float64{s.From, s.To}, [2]string{"from", "to"}); len(errs) > 0 {
		return s, errs
	}
	return s, requestErrors(s.Validate())
}

// MapFromStrings is the map of the page's values (TipsValues of TipsMap):
// every problem, named by its key.
func MapFromStrings(vals map[string]string) (sweep.MapSpec, []FieldMsg) {
	base, _, errs := tipsBase(TipsMap, vals)
	m := sweep.MapSpec{Base: base, X: sweep.Axis{Knob: vals["x"]}, Y: sweep.Axis{Knob: vals["y"]}}
	for _, a := range []struct {
		axis *sweep.Axis
		p    string
	}{{&m.X, "x_"}, {&m.Y, "y_"}} {
		if _, err := sweep.ParseKnob(a.axis.Knob); err != nil {
			for _, fe := range sim.FieldErrors(err) {
				errs = append(errs, FieldMsg{a.p[:1], fe.Msg})
			}
		}
		tipsNumber(vals, a.p+"from", kindFloat, "0", &a.axis.From, &errs)
		tipsNumber(vals, a.p+"to", kindFloat, "3", &a.axis.To, &errs)
		tipsNumber(vals, a.p+"steps", kindInt, "4", &a.axis.Steps, &errs)
	}
	tipsNumber(vals, "seeds", kindInt, "10", &m.Seeds, &errs)
	if len(errs) > 0 {
		return m, errs
	}
	for _, a := range []struct {
		axis sweep.Axis
		p    string
	}{{m.X, "x_"}, {m.Y, "y_"}} {
		errs = append(errs, tipsEnds(base, a.axis.Knob, [2]float64{a.axis.From, a.axis.To}, [2]string{a.p + "from", a.p + "to"})...)
	}
	if len(errs) > 0 {
		return m, errs
	}
	errs = requestErrors(m.Validate())
	for i, e := range errs {
		if e.Field == "x_knob" || e.Field == "y_knob" {
			errs[i].Field = e.Field[:1] // the form's and the address's x and y
		}
	}
	return m, errs
}

// RunOutcome is a worker's answer for one setting of a sweep or a map: the
// Config in configJSON (as WorkerConfig writes it) at seeds seeds from its
// own, folded by sweep.Measure, as JSON; or {"error"}, a bug, since the
// page validated the request.
func RunOutcome(configJSON string, seeds int) string {
	c, err := workerConfigOf(configJSON)
	if err != nil {
		return Fail(err.Error())
	}
	o, err := sweep.Measure(c, seeds)
	if err != nil {
		return Fail(err.Error())
	}
	return MustJSON(o)
}

// DecodeOutcome reads a worker's answer for one setting (RunOutcome's).
func DecodeOutcome(data string) (sweep.Outcome, error) {
	var answer struct {
		sweep.Outcome
		Error string `json:"error"`
	}
	if err := json.Unmarshal([]byte(data), &answer); err != nil {
		return sweep.Outcome{}, errors.New("a worker's answer is not JSON of an Outcome: " + err.Error())
	}
	if answer.Error != "" {
		return sweep.Outcome{}, errors.New("a worker failed: " + answer.Error)
	}
	return answer.Outcome, nil
}
