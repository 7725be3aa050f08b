package adapter

import (
	"math"
	"slices"
	"strconv"

	"github.com/shedsim/shedsim/sim"
	"github.com/shedsim/shedsim/sim/plan"
	"github.com/shedsim/shedsim/sim/report"
)

// viewAnswer is the answer of viewJSON and clientsJSON: {"view": ...}.
type viewAnswer[V any] struct {
	View V `json:"view"`
}

// clientRuns is how many runs of a Config report.BuildClients makes: one
// per client strategy.
var clientRuns = len(sim.Clients)

// ClientRun runs c with client cl, or reuses chosen, the Result of c
// itself, when cl is c's own client: report.ClientRowOf of each, in the
// order of sim.Clients, is report.BuildClients(c) with one run fewer.
func ClientRun(c sim.Config, chosen sim.Result, cl sim.Client) (sim.Result, error) {
	if cl == c.Client {
		return chosen, nil
	}
	c.Client = cl
	return sim.Run(c)
}

// ClientsOf compares every client strategy for a Config's policy: a
// Config as for ViewOf in, {"view": report.ClientView} out, or
// {"errors": [...]}, or {"error": "..."}.
func ClientsOf(in Input) string {
	return answerView(in, clientRuns, sim.Scope{EveryClient: true}, report.BuildClients)
}

// ViewOf is the simulator page's computation: a Config (any subset of
// its keys; numbers as numbers or strings) in, {"view": report.View} out,
// or {"errors": [{"field", "msg"}]} for input a person can fix, or
// {"error": "..."}.
func ViewOf(in Input) string {
	return answerView(in, ViewRuns, sim.Scope{EveryPolicy: true, Series: true}, report.Build)
}

// answerView decodes in, which decodeConfig validates, checks for
// settings that count for nothing in scope and holds to the page budget
// for runs, and answers {"view": build(c)}.
func answerView[V any](in Input, runs int, scope sim.Scope, build func(sim.Config) (V, error)) (out string) {
	defer guard(&out)
	c, errs, err := decodeConfig(in, runs, scope)
	if err != nil {
		return Fail(err.Error())
	}
	if len(errs) > 0 {
		return Invalid(errs)
	}
	v, err := build(c)
	if err != nil {
		return Invalid(SimErrors(err, nil))
	}
	return MustJSON(viewAnswer[V]{v})
}

// RunOf runs one Config and returns its sim.Result as JSON, exactly the
// bytes json.Marshal gives natively (the browser parity test compares
// them), or {"errors": [...]} or {"error": "..."}.
func RunOf(in Input) (out string) {
	defer guard(&out)
	c, errs, err := decodeConfig(in, 1, sim.Scope{Series: true, Orders: true}) // the Result, its series and its orders
	if err != nil {
		return Fail(err.Error())
	}
	if len(errs) > 0 {
		return Invalid(errs)
	}
	r, err := sim.Run(c)
	if err != nil {
		return Invalid(SimErrors(err, nil))
	}
	return MustJSON(r)
}

// PolicyInfo names a policy for a menu.
type PolicyInfo struct {
	Key   string `json:"key"`
	Title string `json:"title"`
}

// Policies lists every policy's key and title, in the post's order.
func Policies() []PolicyInfo {
	out := make([]PolicyInfo, len(sim.Policies))
	for i, p := range sim.Policies {
		out[i] = PolicyInfo{p.String(), p.Title()}
	}
	return out
}

// DefaultsJSON is what the page starts from: the default Config, the
// planner's default input, the page budget, the Config keys and the
// policies.
func DefaultsJSON() (out string) {
	defer guard(&out)
	return MustJSON(struct {
		Config     sim.Config   `json:"config"`
		PlanInput  plan.Input   `json:"plan_input"`
		PageBudget int          `json:"page_budget"`
		Keys       []string     `json:"keys"`
		Policies   []PolicyInfo `json:"policies"`
	}{sim.DefaultConfig(), plan.DefaultInput(), PageBudget, ConfigKeys(), Policies()})
}

// SamplesJSON is {"samples": [sim.Sample, ...]}, the default first.
func SamplesJSON() (out string) {
	defer guard(&out)
	return MustJSON(struct {
		Samples []sim.Sample `json:"samples"`
	}{sim.Samples()})
}

// LabEntry is one of the lab's recorded combinations.
type LabEntry struct {
	Index  int        `json:"index"`
	Config sim.Config `json:"config"`
}

// LabListJSON is the lab's 162 Configs with their index, and its
// dimensions: {"dimensions": {...}, "lab": [{"index", "config"}]}.
func LabListJSON() (out string) {
	defer guard(&out)
	lab := sim.Lab()
	entries := make([]LabEntry, len(lab))
	for i, c := range lab {
		entries[i] = LabEntry{i, c}
	}
	type dims struct {
		Policies  []PolicyInfo `json:"policies"`
		Retries   []int        `json:"retries"`
		SaleRPS   []float64    `json:"sale_rps"`
		TimeoutMS []float64    `json:"timeout_ms"`
	}
	return MustJSON(struct {
		Dimensions dims       `json:"dimensions"`
		Lab        []LabEntry `json:"lab"`
	}{dims{Policies(), sim.LabRetries, sim.LabSaleRPS, sim.LabTimeoutMS}, entries})
}

// LabRun is one lab combination, run: the Result, its chart, and the
// words for how it ended.
type LabRun struct {
	Index  int          `json:"index"`
	Config sim.Config   `json:"config"`
	Result sim.Result   `json:"result"`
	Chart  report.Chart `json:"chart"`
	// Recovered is report.Recovered: "back to normal 90 s after the sale".
	Recovered string      `json:"recovered"`
	Outlook   report.Line `json:"outlook"`
	ThisRun   report.Line `json:"this_run"`
}

// LabIndex is the index in sim.Lab of a combination, or -1 when a value is
// not one of the lab's.
func LabIndex(p sim.Policy, retries int, saleRPS, timeoutMS float64) int {
	pi, ri := slices.Index(sim.Policies, p), slices.Index(sim.LabRetries, retries)
	si, ti := slices.Index(sim.LabSaleRPS, saleRPS), slices.Index(sim.LabTimeoutMS, timeoutMS)
	if pi < 0 || ri < 0 || si < 0 || ti < 0 {
		return -1
	}
	return ((pi*len(sim.LabRetries)+ri)*len(sim.LabSaleRPS)+si)*len(sim.LabTimeoutMS) + ti
}

// RunLab runs the lab's combination index.
func RunLab(index int) (LabRun, []FieldMsg) {
	lab := sim.Lab()
	if index < 0 || index >= len(lab) {
		return LabRun{}, []FieldMsg{{"index", strconv.Itoa(index) + " is out of range: use a whole number from 0 to " + strconv.Itoa(len(lab)-1)}}
	}
	c := lab[index]
	r, err := sim.Run(c)
	if err != nil {
		return LabRun{}, SimErrors(err, nil)
	}
	return LabRun{index, c, r, report.Timeline(r), report.Recovered(r), report.Outlook(r), report.ThisRun(r)}, nil
}

// LabOf is shedsim.lab(index): the index a whole number (a number or a
// string of one, from 0 to 161); anything else, NaN and 1.5 included, is
// {"errors": [...]}, never a run of an index nobody gave.
func LabOf(v JsValue) (out string) {
	defer guard(&out)
	s := JsScalar(v)
	if s == (Scalar{}) {
		s = Scalar{bad: "is missing: give the index of a lab run, a whole number from 0 to " + strconv.Itoa(len(sim.Lab())-1)}
	}
	x, i, _, msg := parseNumber(s, kindInt, "0")
	if msg == "" && math.Abs(x) > MaxWhole {
		msg = s.Show() + " is out of range: use a whole number from 0 to " + strconv.Itoa(len(sim.Lab())-1)
	}
	if msg != "" {
		return Invalid([]FieldMsg{{"index", msg}})
	}
	return labJSON(int(i))
}

// labJSON runs the lab's combination index (0 to 161, in the order of
// sim.Lab) and returns a LabRun, or {"errors": [...]} for an index out of
// range.
func labJSON(index int) (out string) {
	defer guard(&out)
	l, errs := RunLab(index)
	if len(errs) > 0 {
		return Invalid(errs)
	}
	return MustJSON(l)
}

// QueueHint describes the queue size in force next to the queue field:
// "automatic: 50, 0.5 s of work" when queue is 0, else "1,024 requests,
// 10.2 s of work".
func QueueHint(v report.View) string {
	if v.Config.Queue == 0 {
		return "automatic: " + report.Count(v.QueueBound) + ", " + report.Seconds(v.QueueSeconds) + " of work"
	}
	return report.Count(v.QueueBound) + " requests, " + report.Seconds(v.QueueSeconds) + " of work"
}
