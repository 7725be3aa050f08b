package sweep

import (
	"errors"

	"github.com/shedsim/shedsim/sim"
)

// Plan is the runs a Spec or a MapSpec makes, validated, for a caller that
// runs them itself (the page, whose runs go to its Web Workers): each
// setting's Config, to be run by Measure at Seeds seeds from its own Seed.
// The Outcomes, in the order of Settings, make the Sweep (Spec.Assemble)
// or the Map (MapSpec.Assemble) that Run or RunMap would return.
type Plan struct {
	// Settings are the Configs, in the order Run measures them: a sweep's
	// policy by policy and, within each, value by value; a map's row by row
	// (Y), and within each, column by column (X).
	Settings []sim.Config
	// Seeds is how many seeds each setting runs.
	Seeds int
}

// Plan validates s, as Validate does, and returns its runs.
func (s Spec) Plan() (Plan, error) {
	_, _, _, settings, err := s.check()
	if err != nil {
		return Plan{}, err
	}
	return Plan{Settings: settings, Seeds: s.Seeds}, nil
}

// Plan validates m, as Validate does, and returns its runs.
func (m MapSpec) Plan() (Plan, error) {
	_, _, settings, err := m.check()
	if err != nil {
		return Plan{}, err
	}
	return Plan{Settings: settings, Seeds: m.Seeds}, nil
}

// Measure runs c at seeds c.Seed to c.Seed+n-1 and folds them, in seed
// order, into the Outcome that Run reports for that setting: the same
// bits, whoever calls it and on whatever platform. It checks c and the
// seeds, but not a request's budget, which Plan has checked. It runs one
// seed after another with sim.Run (a caller spreads settings over its
// cores), so that a program that measures only this way, as the page's
// workers do, links no batch of runs.
func Measure(c sim.Config, n int) (Outcome, error) {
	if err := errors.Join(c.Validate(), seedsFrom(c, n)); err != nil {
		return Outcome{}, err
	}
	var t tally
	first := c.Seed
	for i := range n {
		c.Seed = first + uint64(i)
		r, err := sim.Run(c)
		if err != nil {
			return Outcome{}, err
		}
		t.add(r)
	}
	return t.outcome(), nil
}

// Assemble is the Sweep of s from its Outcomes, one per setting of its
// Plan in that order: what Run returns when every Outcome is measured.
// An Outcome not measured yet (Seeds 0) is a step the Sweep does not know
// yet: no mark is put beside it, so that a page drawing the steps as they
// finish marks only what it has measured. The Sweep's Spec names its knob
// by its JSON key, however s spelt it.
func (s Spec) Assemble(outs []Outcome) Sweep {
	values := Values(s.From, s.To, s.Steps)
	policies := s.Policies
	if len(policies) == 0 {
		policies = sim.Policies
	}
	sw := Sweep{Spec: s, Values: values}
	sw.Spec.Progress = nil
	sw.Spec.Policies = policies
	sw.Spec.Knob = keyOf(s.Knob)
	for i, p := range policies {
		c := Curve{Policy: p, Steps: outs[i*len(values) : (i+1)*len(values)]}
		c.Flips, c.Crossings = marks(values, c.Steps, Outcome.MostlyBack), []Mark{}
		if s.Below > 0 {
			c.Crossings = marks(values, c.Steps, func(o Outcome) bool { return o.Answered.N > 0 && o.Answered.Mean >= s.Below })
		}
		sw.Curves = append(sw.Curves, c)
	}
	return sw
}

// Assemble is the Map of m from its Outcomes, one per cell of its Plan in
// that order: what RunMap returns, its knobs named by their JSON keys.
func (m MapSpec) Assemble(outs []Outcome) Map {
	out := Map{Spec: m, Xs: Values(m.X.From, m.X.To, m.X.Steps), Ys: Values(m.Y.From, m.Y.To, m.Y.Steps)}
	out.Spec.Progress = nil
	out.Spec.X.Knob, out.Spec.Y.Knob = keyOf(m.X.Knob), keyOf(m.Y.Knob)
	for j := range out.Ys {
		out.Cells = append(out.Cells, outs[j*len(out.Xs):(j+1)*len(out.Xs)])
	}
	return out
}

// keyOf is a knob as its JSON key, however it was written ("sale-rps",
// "--Sale-RPS" and "spike" are "sale_rps"), so that what a request
// measured reads the same whoever asked: the command line's flag or the
// page's key. A name that is no knob stays as it is (Plan has refused it).
func keyOf(name string) string {
	if k, err := ParseKnob(name); err == nil {
		return k.Name()
	}
	return name
}
