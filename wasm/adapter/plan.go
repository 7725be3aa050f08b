package adapter

import (
	"strconv"

	"github.com/shedsim/shedsim/sim/plan"
	"github.com/shedsim/shedsim/sim/report"
)

// Waits is what the planner counts, after "requests that": "wait", or
// "wait longer than 100 ms" with a limit.
func Waits(in plan.Input) string {
	if in.LimitMS > 0 {
		return "wait longer than " + report.Duration(in.LimitMS)
	}
	return "wait"
}

// PlanDefaults are plan.DefaultInput as the planner's form writes it, the
// target as a percentage (its own example: 120/s, 45 ms, 5%).
var PlanDefaults = func() map[string]string {
	in := plan.DefaultInput()
	return map[string]string{"rate_rps": Fnum(in.RateRPS), "service_ms": Fnum(in.ServiceMS),
		"target": Fnum(float64(in.Target*100)) + "%", "limit_ms": Fnum(in.LimitMS),
		"patience_ms": Fnum(in.PatienceMS), "abandon_target": Fnum(in.AbandonTarget)}
}()

// PlanKeys are the planner's keys, in the order of its form.
var PlanKeys = func() []string {
	var keys []string
	for _, f := range planFields {
		keys = append(keys, f.Key)
	}
	return keys
}()

var planFields = []struct {
	Key  string
	kind kind
	set  func(in *plan.Input, x float64)
}{
	{"rate_rps", kindFloat, func(in *plan.Input, x float64) { in.RateRPS = x }},
	{"service_ms", kindFloat, func(in *plan.Input, x float64) { in.ServiceMS = x }},
	{"target", kindShare, func(in *plan.Input, x float64) { in.Target = x }},
	{"limit_ms", kindFloat, func(in *plan.Input, x float64) { in.LimitMS = x }},
	{"patience_ms", kindFloat, func(in *plan.Input, x float64) { in.PatienceMS = x }},
	{"abandon_target", kindShare, func(in *plan.Input, x float64) { in.AbandonTarget = x }},
}

// PlanFromStrings is a planner Input from the form or the URL: the
// default input with each value in vals set (target may be a fraction,
// 0.05, or a percentage, "5%"), validated.
func PlanFromStrings(vals map[string]string) (plan.Input, []FieldMsg) {
	return planFrom(stringValues(vals))
}

func planFrom(vals map[string]Scalar) (plan.Input, []FieldMsg) {
	in := plan.DefaultInput()
	d := PlanDefaults
	var errs []FieldMsg
	for _, f := range planFields {
		s, ok := vals[f.Key]
		if !ok {
			continue
		}
		x, _, _, msg := parseNumber(s, f.kind, d[f.Key])
		if msg != "" {
			errs = append(errs, FieldMsg{f.Key, msg})
			continue
		}
		f.set(&in, x)
	}
	errs = append(errs, unknownKeys(SortedUnknown(vals, func(k string) bool { _, ok := d[k]; return ok }), "the planner", PlanKeys)...)
	errs = append(errs, SimErrors(in.Validate(), errs)...)
	return in, errs
}

// PlanAnswer is the planner page's answer: the plan and its chart.
type PlanAnswer struct {
	Plan  plan.Plan `json:"plan"`
	Chart PlanChart `json:"chart"`
}

// ComputePlan validates in and computes its plan and chart.
func ComputePlan(in plan.Input) (PlanAnswer, []FieldMsg) {
	p, err := plan.Compute(in) // it validates in, with the same field errors
	if err != nil {
		return PlanAnswer{}, SimErrors(err, nil)
	}
	return PlanAnswer{p, LayoutPlan(p)}, nil
}

// PlanOf is the planner: {"rate_rps", "service_ms", "target", "limit_ms"}
// in (any subset; numbers or strings; target also as "5%"), {"plan":
// plan.Plan, "chart": PlanChart} out, or {"errors": [...]}, or
// {"error": "..."}.
func PlanOf(arg Input) (out string) {
	defer guard(&out)
	if arg.err != nil {
		return Fail(arg.err.Error())
	}
	in, errs := planFrom(arg.Vals)
	if len(errs) > 0 {
		return Invalid(errs)
	}
	a, errs := ComputePlan(in)
	if len(errs) > 0 {
		return Invalid(errs)
	}
	return MustJSON(a)
}

// PlanChart is the geometry of the planner's chart, in the units of an SVG
// viewBox of Width x Height: one column per server count of the Plan's
// Curve, its height the share of requests that wait (or wait longer than
// the limit), with the target as a horizontal line.
type PlanChart struct {
	Width  float64       `json:"width"`
	Height float64       `json:"height"`
	Plot   report.Rect   `json:"plot"`
	Bars   []PlanBar     `json:"bars"`
	Target float64       `json:"target_y"`
	XTicks []report.Tick `json:"x_ticks"`
	YTicks []report.Tick `json:"y_ticks"`
	// Summary describes the chart in a sentence, for screen readers.
	Summary string `json:"summary"`
}

// PlanBar is one server count's column.
type PlanBar struct {
	Servers int `json:"servers"`
	report.Rect
	// Kind is "answer", "one_fewer", "meets" (meets the target) or
	// "misses".
	Kind  string `json:"kind"`
	Label string `json:"label"`
}

// PlanPercent formats a share for the planner, which needs two decimals
// (7.56%), and tiny shares with their first two significant digits, as
// decimals a reader reads ("0.000029%", not "2.9e-05%").
func PlanPercent(x float64) string {
	p := x * 100
	switch {
	case p == 0:
		return "0%"
	case p < 0.01:
		prec := 1
		for v := p; v < 1 && prec < 20; v *= 10 {
			prec++
		}
		return strconv.FormatFloat(p, 'f', prec, 64) + "%"
	}
	return strconv.FormatFloat(p, 'f', 2, 64) + "%"
}

// LayoutPlan lays out p's curve as a column chart.
func LayoutPlan(p plan.Plan) PlanChart {
	// The left margin holds "100%" at a phone's 22 units (widget.css): at
	// 44 it ran off the screen's left edge.
	const w, h, ml, mr, mt, mb = 600.0, 220.0, 68.0, 8.0, 8.0, 28.0
	pw, ph := w-ml-mr, h-mt-mb
	ch := PlanChart{Width: w, Height: h, Plot: report.Rect{X: ml, Y: mt, W: pw, H: ph}}
	ch.Target = mt + ph - float64(p.Input.Target*ph)
	n := len(p.Curve)
	what := Waits(p.Input)
	if n == 0 {
		ch.Summary = "No stable server count to chart."
		return ch
	}
	slot := pw / float64(n)
	step := 1
	for n/step > 12 {
		step++
	}
	for i, r := range p.Curve {
		k := "misses"
		switch {
		case r.Servers == p.Servers:
			k = "answer"
		case r.Servers == p.Servers-1:
			k = "one_fewer"
		case r.MeetsTarget:
			k = "meets"
		}
		bh := float64(r.Wait * ph)
		x := ml + float64(slot*float64(i))
		ch.Bars = append(ch.Bars, PlanBar{r.Servers, report.Rect{X: x + float64(slot*0.1), Y: mt + ph - bh, W: slot * 0.8, H: bh}, k,
			strconv.Itoa(r.Servers) + " servers: " + PlanPercent(r.Wait) + " of requests " + what})
		if (r.Servers-p.Servers)%step == 0 {
			ch.XTicks = append(ch.XTicks, report.Tick{At: x + slot/2, Label: strconv.Itoa(r.Servers)})
		}
	}
	for _, f := range []float64{0, 0.5, 1} {
		ch.YTicks = append(ch.YTicks, report.Tick{At: mt + ph - float64(f*ph), Label: strconv.Itoa(int(f*100)) + "%"})
	}
	first, last := p.Curve[0], p.Curve[n-1]
	s := "Share of requests that " + what + ", by servers, from " + strconv.Itoa(first.Servers) + " to " + strconv.Itoa(last.Servers) + ": " +
		PlanPercent(first.Wait) + " with " + strconv.Itoa(first.Servers) + ", "
	if p.OneFewer != nil && p.OneFewer.Stable {
		s += PlanPercent(p.OneFewer.Wait) + " with " + strconv.Itoa(p.Servers-1) + ", "
	}
	s += PlanPercent(p.Answer.Wait) + " with " + strconv.Itoa(p.Servers) + " (the answer, target " + PlanPercent(p.Input.Target) + "), " +
		PlanPercent(last.Wait) + " with " + strconv.Itoa(last.Servers) + "."
	ch.Summary = s
	return ch
}
