package sweep

import (
	"errors"
	"strconv"
	"strings"

	"github.com/shedsim/shedsim/sim"
	"github.com/shedsim/shedsim/sim/internal/limits"
)

// MaxSteps is the most values a sweep's range, or a map's axis, may have.
const MaxSteps = 1000

// Spec is a sweep: Base with one knob over a range, at Seeds seeds, for
// some policies.
type Spec struct {
	// Base is the Config every step starts from; its Seed is the first of
	// the seeds and its Policy is ignored (see Policies).
	Base sim.Config `json:"base"`
	// Knob is the field that varies, by JSON key ("sale_rps"; see
	// ParseKnob).
	Knob string `json:"knob"`
	// From and To are the range, both included, in the knob's unit; From
	// may be above To, to sweep downwards.
	From float64 `json:"from"`
	To   float64 `json:"to"`
	// Steps is how many values, evenly spaced from From to To (at least 2,
	// or 1 when From = To).
	Steps int `json:"steps"`
	// Seeds is how many seeds each value runs, from Base.Seed.
	Seeds int `json:"seeds"`
	// Policies are the policies to sweep, each a curve; none means every
	// policy, in sim.Policies's order.
	Policies []sim.Policy `json:"policies,omitempty"`
	// Below is the answered share whose crossing the sweep marks (a
	// fraction; 0 marks none). Command lines default it to 0.5, half the
	// sale.
	Below float64 `json:"below"`
	// Progress, if set, hears as the runs finish.
	Progress Progress `json:"-"`
}

// Sweep is what a Spec measured: one Curve per policy.
type Sweep struct {
	Spec   Spec      `json:"spec"`
	Values []float64 `json:"values"`
	Curves []Curve   `json:"curves"`
}

// Curve is one policy over the sweep's values.
type Curve struct {
	Policy sim.Policy `json:"policy"`
	// Steps are the outcomes, one per value, in the order of Values.
	Steps []Outcome `json:"steps"`
	// Flips are where most seeds stop (or start) getting back to normal:
	// between two neighbouring steps, one with over half the seeds back
	// and one without.
	Flips []Mark `json:"flips"`
	// Crossings are where the mean answered share crosses Spec.Below:
	// between two neighbouring steps, one at or over it and one under.
	Crossings []Mark `json:"crossings"`
}

// Mark is a change between two neighbouring steps, From then To in the
// sweep's order; Now says whether the condition (most seeds back, or
// answered at least Below) holds at To.
type Mark struct {
	From float64 `json:"from"`
	To   float64 `json:"to"`
	Now  bool    `json:"now"`
}

// Values returns the steps values from from to to, evenly spaced, the
// last exactly to (none for steps under 1). Each is from + (to - from) x i / (steps - 1), written
// so that no platform fuses a multiply-add.
func Values(from, to float64, steps int) []float64 {
	switch {
	case steps < 1:
		return nil
	case steps == 1:
		return []float64{from}
	}
	out := make([]float64, steps)
	span := to - from
	for i := range out {
		out[i] = from + float64(span*float64(i))/float64(steps-1)
	}
	out[steps-1] = to
	return out
}

// rangeErrors checks one range of a knob: its ends, its steps and, for a
// whole knob, that every step is whole. The fields are named with prefix
// ("" for a sweep, "x_" or "y_" for a map's axes).
func rangeErrors(prefix, key string, base sim.Config, from, to float64, steps int) (Knob, []float64, error) {
	k, err := ParseKnob(key)
	if err != nil {
		fe := err.(*sim.FieldError)
		fe.Field = prefix + fe.Field
		return Knob{}, nil, fe
	}
	if msg := k.checkBase(base); msg != "" {
		return Knob{}, nil, sim.NewFieldError(prefix+"knob", msg)
	}
	var errs []error
	for _, end := range []struct {
		field string
		x     float64
	}{{"from", from}, {"to", to}} {
		if msg := k.checkValue(end.x); msg != "" {
			errs = append(errs, sim.NewFieldError(prefix+end.field, msg))
		}
	}
	switch {
	case steps < 1 || steps > MaxSteps:
		errs = append(errs, &sim.FieldError{Field: prefix + "steps", Msg: limits.Count(int64(steps)) + " is out of range: use a whole number from 1 to " + limits.Count(MaxSteps)})
	case steps == 1 && from != to:
		errs = append(errs, &sim.FieldError{Field: prefix + "steps", Msg: "1 step cannot go from " + num(from) + " to " + num(to) + ": use 2 or more, or the same from and to"})
	case steps > 1 && from == to:
		errs = append(errs, &sim.FieldError{Field: prefix + "steps", Msg: limits.Count(int64(steps)) + " steps from " + num(from) + " to " + num(to) + " are the same run " +
			limits.Count(int64(steps)) + " times: use 1 step, or a range"})
	}
	if len(errs) > 0 {
		return k, nil, errors.Join(errs...)
	}
	if k.Whole && steps > 1 {
		if gap := (to - from) / float64(steps-1); gap != float64(int64(gap)) {
			return k, nil, sim.NewFieldError(prefix+"steps", "{"+k.Key+"} is a whole number, and "+strconv.Itoa(steps)+
				" steps from "+num(from)+" to "+num(to)+" are "+num(gap)+" apart: use "+wholeSteps(from, to))
		}
	}
	return k, Values(from, to, steps), nil
}

// wholeSteps lists the step counts that space a whole knob's range in
// whole numbers, for a message: "2, 3, 5, 6, 11 or 21 steps".
func wholeSteps(from, to float64) string {
	span := int64(to - from)
	if span < 0 {
		span = -span
	}
	var fits []string
	for d := int64(1); d <= span && len(fits) < 12; d++ {
		if span%d == 0 && span/d+1 <= MaxSteps {
			fits = append(fits, strconv.FormatInt(span/d+1, 10))
		}
	}
	// fits runs from the most steps down; a message reads better upwards.
	for i, j := 0, len(fits)-1; i < j; i, j = i+1, j-1 {
		fits[i], fits[j] = fits[j], fits[i]
	}
	switch len(fits) {
	case 0:
		return "the same from and to"
	case 1:
		return fits[0] + " steps"
	}
	s := ""
	for i, f := range fits[:len(fits)-1] {
		if i > 0 {
			s += ", "
		}
		s += f
	}
	return s + " or " + fits[len(fits)-1] + " steps"
}

// settingsErrors checks each setting's Config, naming the first that does
// not validate by the knob's value there.
func settingsErrors(settings []sim.Config, label func(sim.Config) string) error {
	for _, c := range settings {
		if err := c.Validate(); err != nil {
			return &SettingError{At: label(c), Err: err}
		}
	}
	return nil
}

// SettingError is a setting of a request whose Config does not validate:
// Err, for the Config with the knobs at At.
type SettingError struct {
	// At is the setting, as Knob.Label writes it: "sale_rps 2000000/s".
	At  string
	Err error
}

func (e *SettingError) Error() string { return "at " + e.At + ": " + e.Err.Error() }

// Unwrap returns the Config's validation errors.
func (e *SettingError) Unwrap() error { return e.Err }

// check validates s and returns its knob, values, policies and settings
// (one Config per policy and value, policy-major).
func (s Spec) check() (Knob, []float64, []sim.Policy, []sim.Config, error) {
	k, values, err := rangeErrors("", s.Knob, s.Base, s.From, s.To, s.Steps)
	err = errors.Join(err, seedsFrom(s.Base, s.Seeds))
	if !(s.Below >= 0 && s.Below <= 1) {
		err = errors.Join(err, &sim.FieldError{Field: "below", Msg: num(s.Below) + " is out of range: use a share from 0 to 1 (0.5 is half the sale)"})
	}
	policies := s.Policies
	if len(policies) == 0 {
		policies = sim.Policies
	}
	for _, p := range policies {
		if !validPolicy(p) {
			err = errors.Join(err, &sim.FieldError{Field: "policies", Msg: strconv.Itoa(int(p)) + " is not a policy"})
		}
	}
	if err != nil {
		return k, nil, nil, nil, err
	}
	var settings []sim.Config
	for _, p := range policies {
		for _, v := range values {
			c := k.With(s.Base, v)
			c.Policy = p
			settings = append(settings, c)
		}
	}
	if err := settingsErrors(settings, k.Label); err != nil {
		return k, nil, nil, nil, err
	}
	if err := knobCounts("knob", k, settings); err != nil {
		return k, nil, nil, nil, err
	}
	made := strconv.Itoa(len(values)) + " steps"
	if len(policies) > 1 {
		made += " x " + strconv.Itoa(len(policies)) + " policies"
	}
	if err := budget(settings, s.Seeds, made); err != nil {
		return k, nil, nil, nil, err
	}
	return k, values, policies, settings, nil
}

// KnobUnused is the *sim.FieldError sim.Config.Unused gives k's field at
// the first of settings, when k counts for nothing in scope at every one
// of them (a sweep of order_share under fifo, of the queue bound under
// CoDel); nil when it counts at one.
func KnobUnused(k Knob, scope sim.Scope, settings ...sim.Config) *sim.FieldError {
	var first *sim.FieldError
	for _, c := range settings {
		err := c.Unused([]string{k.Key}, scope)
		if err == nil {
			return nil
		}
		if first == nil {
			first = sim.FieldErrors(err)[0]
		}
	}
	return first
}

// knobCounts refuses, as field, a knob that counts for nothing at any of
// settings: every run would be the same.
func knobCounts(field string, k Knob, settings []sim.Config) error {
	fe := KnobUnused(k, sim.Scope{}, settings...)
	if fe == nil {
		return nil
	}
	why, _, _ := strings.Cut(fe.Says(), ", or leave out")
	return sim.NewFieldError(field, "{"+k.Key+"} changes nothing here: it "+why)
}

func validPolicy(p sim.Policy) bool {
	for _, q := range sim.Policies {
		if p == q {
			return true
		}
	}
	return false
}

// Validate checks the Spec without running it: the knob and its range, the
// seeds, every step's Config, and the budget (MaxAttempts). Its errors are
// *sim.FieldErrors naming "knob", "from", "to", "steps", "seeds", "below"
// or "policies", or, for a step whose Config does not validate, the
// Config's own fields, wrapped to say at which value.
func (s Spec) Validate() error {
	_, _, _, _, err := s.check()
	return err
}

// Run measures the Spec: every policy at every value at every seed.
func Run(s Spec) (Sweep, error) { return run(s, nil) }

func run(s Spec, keep func(int, sim.Result)) (Sweep, error) {
	p, err := s.Plan()
	if err != nil {
		return Sweep{}, err
	}
	outs, err := measure(p.Settings, s.Base.Seed, s.Seeds, s.Progress, keep)
	if err != nil {
		return Sweep{}, err
	}
	return s.Assemble(outs), nil
}

// marks are the neighbouring steps between which holds changes, of
// those both measured (an Outcome of no seeds is a step not measured yet).
func marks(values []float64, steps []Outcome, holds func(Outcome) bool) []Mark {
	out := []Mark{}
	for i := 1; i < len(steps); i++ {
		if steps[i-1].Seeds == 0 || steps[i].Seeds == 0 {
			continue
		}
		if was, now := holds(steps[i-1]), holds(steps[i]); was != now {
			out = append(out, Mark{From: values[i-1], To: values[i], Now: now})
		}
	}
	return out
}
