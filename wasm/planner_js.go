//go:build js && wasm

package main

import (
	"fmt"
	"strings"
	"syscall/js"

	"honnef.co/go/js/dom/v2"

	"github.com/shedsim/shedsim/sim/plan"
	"github.com/shedsim/shedsim/sim/report"
)

// planDefaults are the planner form's values at the start (its own
// example: 120/s, 45 ms, 5%).
var planDefaults = map[string]string{"rate_rps": "120", "service_ms": "45", "target": "5%", "limit_ms": "0"}

var planKeys = []string{"rate_rps", "service_ms", "target", "limit_ms"}

// planWidget is the queueing capacity planner.
type planWidget struct {
	widget
	page     bool
	fields   []*field
	byKey    map[string]*field
	modeAny  dom.Element
	modeOver dom.Element

	results, summary, stale, body                  dom.Element
	answer, detail, oneFewer, load, nearby, chartB dom.Element

	has       bool
	lastKey   string
	timer     int
	committed string
}

func mountPlanner(host dom.Element, prefix string, page bool, attrs map[string]string) *planWidget {
	w := &planWidget{widget: widget{host: host, prefix: prefix}, page: page, byKey: map[string]*field{}, timer: -1}
	clear(host)
	host.Class().Add("shedsim")
	if !page {
		host.Class().Add("shedsim-widget")
	}
	given := attrs
	if page {
		given = currentQuery()
		w.committed = win.Location().Search()
	}
	vals := map[string]string{}
	for k, v := range planDefaults {
		vals[k] = v
	}
	for _, k := range planKeys {
		if v, ok := given[k]; ok {
			vals[k] = v
		}
	}
	over := vals["limit_ms"] != "0" && vals["limit_ms"] != ""
	if !over {
		vals["limit_ms"] = "100"
	}

	form := h("form", cls("controls planner-controls"), at("id", w.id("plan-form")), at("novalidate", ""))
	fs := h("fieldset", cls("group"), h("legend", "The load"))
	for _, s := range []fieldSpec{{"rate_rps", "Arrival rate", "requests per s", "decimal"}, {"service_ms", "Mean service time", "ms", "decimal"},
		{"target", "Target share", "such as 5% or 0.05", "decimal"}} {
		f := w.textField(s, vals[s.Key], false)
		w.fields = append(w.fields, f)
		w.byKey[s.Key] = f
		fs.AppendChild(f.box)
	}
	form.AppendChild(fs)

	mode := h("fieldset", cls("group"), h("legend", "The target is about requests that"))
	anyID, overID := w.id("wait-any"), w.id("wait-over")
	w.modeAny = h("input", at("type", "radio"), at("id", anyID), at("name", w.id("wait")), at("value", "any"))
	w.modeOver = h("input", at("type", "radio"), at("id", overID), at("name", w.id("wait")), at("value", "over"))
	setChecked(w.modeAny, !over)
	setChecked(w.modeOver, over)
	lim := w.textField(fieldSpec{"limit_ms", "Limit", "ms", "decimal"}, vals["limit_ms"], false)
	w.fields = append(w.fields, lim)
	w.byKey["limit_ms"] = lim
	build(mode, h("div", cls("radio"), w.modeAny, h("label", at("for", anyID), "wait at all")),
		h("div", cls("radio"), w.modeOver, h("label", at("for", overID), "wait longer than a limit")), lim.box)
	form.AppendChild(mode)
	if page {
		form.AppendChild(h("div", cls("form-actions"), h("button", at("type", "submit"), at("id", w.id("plan-run")), "Plan")))
	}

	w.summary = h("p", cls("summary"), at("id", w.id("plan-summary")), at("role", "status"), at("aria-live", "polite"))
	w.stale = h("p", cls("stale-note"), at("id", w.id("plan-stale-note")), at("hidden", ""), "These results are for the last valid input.")
	w.answer = h("p", cls("answer"), at("id", w.id("plan-answer")))
	w.detail = h("p", at("id", w.id("plan-answer-detail")))
	w.oneFewer = h("p", cls("one-fewer"), at("id", w.id("plan-one-fewer")))
	w.load = h("p", cls("plan-load"), at("id", w.id("plan-load")))
	w.nearby = h("div", at("id", w.id("plan-nearby-box")))
	w.chartB = h("div", cls("chart-box"), at("id", w.id("plan-chart-box")))
	w.body = h("div", cls("results-body"),
		h("div", cls("plan-answer"), w.answer, w.detail, w.oneFewer), w.load,
		h("details", cls("nearby"), at("id", w.id("plan-nearby-details")), h("summary", "Nearby worker counts"), w.nearby),
		w.chartB)
	w.results = h("section", cls("results"), at("id", w.id("plan-results")), at("aria-labelledby", w.id("plan-title")),
		h("h2", at("id", w.id("plan-title")), "The answer"), w.summary, w.stale, w.body)
	if page {
		host.AppendChild(h("div", cls("planner-layout"), form, w.results))
	} else {
		w.results.FirstChild().(dom.Element).SetTextContent("Servers needed")
		build(host, form, w.results)
	}

	if !page {
		if bad := unknownAttrs(attrs, func(k string) bool { _, ok := planDefaults[k]; return ok }); len(bad) > 0 {
			w.fixed = fmt.Sprintf("Not settings of the planner (use rate_rps, service_ms, target, limit_ms): %s.", strings.Join(bad, ", "))
		}
	}
	w.onEl(form, "input", func(js.Value) { w.schedule() })
	w.onEl(form, "change", func(js.Value) { w.update(true) })
	w.onEl(form, "submit", func(ev js.Value) { ev.Call("preventDefault"); w.update(true) })
	if page {
		w.on(js.Global(), "popstate", func(js.Value) { w.restore() })
	}
	w.update(false)
	return w
}

func (w *planWidget) overMode() bool { return checked(w.modeOver) }

// values reads the form; the limit counts only in "longer than" mode.
func (w *planWidget) values() map[string]string {
	out := map[string]string{}
	for _, f := range w.fields {
		out[f.spec.Key] = value(f.input)
	}
	if !w.overMode() {
		out["limit_ms"] = "0"
	}
	return out
}

func (w *planWidget) schedule() {
	if w.timer >= 0 {
		win.ClearTimeout(w.timer)
	}
	w.timer = win.SetTimeout(func() {
		w.timer = -1
		w.safely(func() { w.update(false) })
	}, debounceMS)
}

func (w *planWidget) restore() {
	q := currentQuery()
	for _, f := range w.fields {
		v, ok := q[f.spec.Key]
		if !ok {
			v = planDefaults[f.spec.Key]
			if f.spec.Key == "limit_ms" {
				v = "100"
			}
		}
		setValue(f.input, v)
	}
	over := q["limit_ms"] != "" && q["limit_ms"] != "0"
	setChecked(w.modeOver, over)
	setChecked(w.modeAny, !over)
	w.committed = win.Location().Search()
	w.update(false)
}

func (w *planWidget) update(commit bool) {
	if w.timer >= 0 {
		win.ClearTimeout(w.timer)
		w.timer = -1
	}
	lim := w.byKey["limit_ms"]
	if w.overMode() {
		lim.input.RemoveAttribute("disabled")
	} else {
		lim.input.SetAttribute("disabled", "")
	}
	vals := w.values()
	key := ""
	for _, k := range planKeys {
		key += k + "=" + vals[k] + "\x00"
	}
	if key != w.lastKey {
		w.lastKey = key
		w.compute(vals)
	}
	if w.page {
		q := encodeQuery(planKeys, vals, planDefaults)
		switch {
		case !commit:
			if q != win.Location().Search() {
				history("replaceState", q)
			}
		case q != w.committed:
			history("replaceState", w.committed)
			history("pushState", q)
			w.committed = q
		}
	}
}

func (w *planWidget) compute(vals map[string]string) {
	in, errs := PlanFromStrings(vals)
	var a PlanAnswer
	if len(errs) == 0 {
		a, errs = ComputePlan(in)
	}
	rest := markAll(w.fields, errs)
	if len(errs) > 0 {
		if len(rest) > 0 {
			w.showError(strings.Join(rest, "; "))
		}
		w.results.Class().Add("stale")
		setHidden(w.stale, !w.has)
		setHidden(w.body, !w.has)
		w.summary.SetTextContent("Not updated: " + firstProblem(w.fields, errs))
		w.dispatch("shedsim:invalid", mustJSON(errorsJSON{errs}))
		return
	}
	w.showError("")
	w.results.Class().Remove("stale")
	setHidden(w.stale, true)
	setHidden(w.body, false)
	w.has = true
	w.render(a)
	w.dispatch("shedsim:plan", mustJSON(a))
}

func (w *planWidget) render(a PlanAnswer) {
	p := a.Plan
	in := p.Input
	what := "wait"
	if in.LimitMS > 0 {
		what = "wait longer than " + report.Duration(in.LimitMS)
	}
	noun := "servers"
	if p.Servers == 1 {
		noun = "server"
	}
	fill(w.answer, h("span", cls("big"), report.Count(p.Servers)), " "+noun)
	w.detail.SetTextContent(fmt.Sprintf("With %s, %s of requests %s (the target is at most %s). Mean wait %s, p99 wait %s; each server is busy %s of the time.",
		report.Count(p.Servers), PlanPercent(p.Answer.Wait), what, PlanPercent(in.Target), report.Duration(p.Answer.MeanWaitMS),
		report.Duration(p.Answer.P99WaitMS), report.Percent(p.Answer.Utilisation)))
	switch {
	case p.OneFewer == nil:
		w.oneFewer.SetTextContent("One server is the fewest there can be.")
	case !p.OneFewer.Stable:
		w.oneFewer.SetTextContent(fmt.Sprintf("With %s, the servers could not keep up: the queue would grow without end.", report.Count(p.OneFewer.Servers)))
	default:
		w.oneFewer.SetTextContent(fmt.Sprintf("With one fewer, %s, %s would %s: over the target.", report.Count(p.OneFewer.Servers), PlanPercent(p.OneFewer.Wait), what))
	}
	w.load.SetTextContent(fmt.Sprintf("Offered load: %s Erlangs (%s/s x %s), the average number of busy servers; any count above it keeps up on average. Erlang C assumes random arrivals, exponential service times and nobody giving up.",
		report.Number(p.OfferedLoad, 2), report.Number(in.RateRPS, 2), report.Duration(in.ServiceMS)))
	w.summary.SetTextContent(fmt.Sprintf("%s %s: %s of requests %s; with %d, %s.", report.Count(p.Servers), noun, PlanPercent(p.Answer.Wait), what,
		p.Servers-1, oneFewerShort(p)))

	t := h("table", at("id", w.id("plan-nearby")), cls("nearby-table"), h("caption", "How nearby numbers of servers fare"))
	head := h("tr")
	for _, c := range []string{"Servers", "Busy", "Requests that " + what, "Mean wait", "p99 wait", "Meets the target"} {
		head.AppendChild(h("th", at("scope", "col"), c))
	}
	t.AppendChild(h("thead", head))
	body := h("tbody")
	for _, r := range p.Nearby {
		tr := h("tr", at("data-servers", fmt.Sprint(r.Servers)))
		if r.Servers == p.Servers {
			tr.SetAttribute("class", "answer")
			tr.SetAttribute("aria-current", "true")
		}
		tr.AppendChild(h("th", at("scope", "row"), report.Count(r.Servers)))
		if !r.Stable {
			build(tr, h("td", report.Percent(r.Utilisation)), h("td", at("colspan", "4"), "cannot keep up: the queue grows without end"))
		} else {
			meets := "no"
			if r.MeetsTarget {
				meets = "yes"
			}
			build(tr, h("td", report.Percent(r.Utilisation)), h("td", PlanPercent(r.Wait)), h("td", report.Duration(r.MeanWaitMS)),
				h("td", report.Duration(r.P99WaitMS)), h("td", meets))
		}
		body.AppendChild(tr)
	}
	t.AppendChild(body)
	fill(w.nearby, tableWrap("Nearby worker counts", t))
	fill(w.chartB, renderPlanChart(w.id("plan-chart"), a.Chart, in.Target, what))
}

func oneFewerShort(p plan.Plan) string {
	switch {
	case p.OneFewer == nil:
		return "none is not an option"
	case !p.OneFewer.Stable:
		return "the queue would grow without end"
	}
	return PlanPercent(p.OneFewer.Wait)
}

// renderPlanChart draws the planner's columns and the target line.
func renderPlanChart(id string, ch PlanChart, target float64, what string) dom.Element {
	s := svg("svg", at("id", id), cls("plan-chart"), at("viewBox", "0 0 "+svgNum(ch.Width)+" "+svgNum(ch.Height)),
		at("role", "img"), at("aria-label", ch.Summary))
	p := ch.Plot
	s.AppendChild(svg("rect", cls("plot-bg"), at("x", svgNum(p.X)), at("y", svgNum(p.Y)), at("width", svgNum(p.W)), at("height", svgNum(p.H))))
	for _, t := range ch.YTicks {
		s.AppendChild(svg("line", cls("grid"), at("x1", svgNum(p.X)), at("x2", svgNum(p.X+p.W)), at("y1", svgNum(t.At)), at("y2", svgNum(t.At))))
		s.AppendChild(svg("text", cls("tick y"), at("x", svgNum(p.X-6)), at("y", svgNum(t.At+4)), at("text-anchor", "end"), t.Label))
	}
	for _, b := range ch.Bars {
		s.AppendChild(svg("rect", cls("col "+b.Kind), at("x", svgNum(b.X)), at("y", svgNum(b.Y)), at("width", svgNum(b.W)), at("height", svgNum(max(b.H, 0.5))),
			svg("title", b.Label)))
	}
	for _, t := range ch.XTicks {
		s.AppendChild(svg("text", cls("tick x"), at("x", svgNum(t.At)), at("y", svgNum(p.Y+p.H+18)), at("text-anchor", "middle"), t.Label))
	}
	s.AppendChild(svg("line", cls("target"), at("x1", svgNum(p.X)), at("x2", svgNum(p.X+p.W)), at("y1", svgNum(ch.Target)), at("y2", svgNum(ch.Target))))
	s.AppendChild(svg("text", cls("target-label"), at("x", svgNum(p.X+p.W-4)), at("y", svgNum(ch.Target-5)), at("text-anchor", "end"), "target "+PlanPercent(target)))
	s.AppendChild(svg("line", cls("axis"), at("x1", svgNum(p.X)), at("x2", svgNum(p.X+p.W)), at("y1", svgNum(p.Y+p.H)), at("y2", svgNum(p.Y+p.H))))
	return h("figure", cls("chart"), s,
		h("figcaption", "Share of requests that "+what+", by number of servers; the answer is highlighted, the dashed line is the target. The nearby worker counts above give the numbers as a table."))
}
