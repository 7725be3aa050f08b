package report

import "github.com/shedsim/shedsim/sim"

// View is everything the simulator page shows for one Config: every policy
// side by side, the chosen policy over time, the two lines under the chart,
// and what to change.
type View struct {
	// Config is the configuration as given (Queue may be 0, automatic).
	Config sim.Config `json:"config"`
	// QueueBound is the bound the bounded and priority policies use, with
	// the automatic choice resolved, and QueueSeconds its worth of work.
	QueueBound   int     `json:"queue_bound"`
	QueueSeconds float64 `json:"queue_seconds"`
	// CapacityRPS is Workers / ServiceMS, in requests per second.
	CapacityRPS float64 `json:"capacity_rps"`
	// Rows compares every policy, in the order of sim.Policies.
	Rows []Row `json:"rows"`
	// Chosen is the full Result of Config's own policy.
	Chosen  sim.Result `json:"chosen"`
	Chart   Chart      `json:"chart"`
	Outlook Line       `json:"outlook"`
	ThisRun Line       `json:"this_run"`
	// Advice is what to change, measured.
	Advice []Advice `json:"advice"`
	// Fluid is the fluid view for retries 0 to max(3, Retries).
	Fluid []string `json:"fluid"`
	// Mechanism is the chosen policy's series drawn as the post argues
	// from it (BuildMechanism), when Config asks for a series
	// (sim.Config.SeriesStepS; sim.SeriesStep gives the step to ask for);
	// nil otherwise.
	Mechanism *Mechanism `json:"mechanism,omitempty"`
	// Chain is the chosen run's chain (BuildChain), for a Config with
	// hops (sim/MODEL.md rule 40); nil otherwise.
	Chain *Chain `json:"chain,omitempty"`
}

// Build runs c under every policy, plus the alternatives its advice quotes,
// and lays out the result. It returns c's validation errors unchanged. It is
// BuildCompared followed by Advise.
func Build(c sim.Config) (View, error) {
	v, rs, err := BuildCompared(c)
	if err != nil {
		return View{}, err
	}
	if v.Advice, err = Advise(c, rs); err != nil {
		return View{}, err
	}
	return v, nil
}

// BuildCompared is the part of c's View a page can draw first: every policy
// side by side (the runs of Compare, which it also returns) and the chosen
// policy's chart, lines and fluid view; everything but the Advice, which
// runs more alternatives: Advise(c, compared) completes it.
func BuildCompared(c sim.Config) (v View, compared []sim.Result, err error) {
	rs, err := Compare(c)
	if err != nil {
		return View{}, nil, err
	}
	v = ChosenView(c, rs[c.Policy])
	v.Rows = Rows(rs)
	return v, rs, nil
}

// BuildChosen is the part of c's View a page can draw before any other: c's
// own policy, run alone (the same Result as in Compare's batch), with its
// chart, lines and fluid view. Rows is nil: the other policies' runs, and
// Rows of every policy, complete it. It returns c's validation errors unchanged.
func BuildChosen(c sim.Config) (View, error) {
	chosen, err := sim.Run(c)
	if err != nil {
		return View{}, err
	}
	return ChosenView(c, chosen), nil
}

// ChosenView lays out chosen, c's own run, wherever it ran: everything in
// a View but Rows and Advice, as BuildChosen does.
func ChosenView(c sim.Config, chosen sim.Result) View {
	return View{
		Config:       c,
		QueueBound:   c.QueueBound(),
		QueueSeconds: c.QueueSeconds(),
		CapacityRPS:  c.CapacityRPS(),
		Chosen:       chosen,
		Chart:        Timeline(chosen),
		Outlook:      Outlook(chosen),
		ThisRun:      ThisRun(chosen),
		Fluid:        Fluid(c),
		Mechanism:    mechanismOf(chosen),
		Chain:        chainOf(chosen),
	}
}

// chainOf is BuildChain's view of r, or nil when r has no hops.
func chainOf(r sim.Result) *Chain {
	if ch, ok := BuildChain(r); ok {
		return &ch
	}
	return nil
}

// mechanismOf is BuildMechanism's chart of r, or nil when r has no series.
func mechanismOf(r sim.Result) *Mechanism {
	if m, ok := BuildMechanism(r); ok {
		return &m
	}
	return nil
}
