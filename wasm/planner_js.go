//go:build js && wasm

package main

import (
	"maps"
	"strconv"
	"strings"
	"syscall/js"

	"github.com/shedsim/shedsim/sim/plan"
	"github.com/shedsim/shedsim/sim/report"
	"github.com/shedsim/shedsim/wasm/adapter"
	"github.com/shedsim/shedsim/wasm/markup"
)

// planWidget is the queueing capacity planner.
type planWidget struct {
	widget
	page     bool
	openPage *openLink // a widget's link to the planner page
	fields   []*field
	byKey    map[string]*field
	modeAny  el
	modeOver el

	results, summary, stale, body                  el
	answer, detail, oneFewer, load, nearby, chartB el
	erlangA                                        el // Erlang A's answer, when people give up

	has      bool
	lastKey  string
	debounce *task
}

func mountPlanner(host el, prefix string, page bool, attrs map[string]string) *planWidget {
	w := &planWidget{widget: widget{host: host, prefix: prefix}, page: page, byKey: map[string]*field{}}
	w.debounce = w.task(func() { w.update(false) })
	vals, over := planStart(w.open(page, attrs))

	form := h("form", "class", "controls planner-controls", "id", w.id("plan-form"), "novalidate", "")
	fs := build(h("fieldset", "class", "group"), h("legend", "The load"))
	for _, s := range []markup.FieldSpec{{Key: "rate_rps", Label: "Arrival rate", Unit: "requests per s", Mode: "decimal"}, {Key: "service_ms", Label: "Mean service time", Unit: "ms", Mode: "decimal"},
		{Key: "target", Label: "Target share", Unit: "such as 5% or 0.05", Mode: "decimal"}} {
		f := w.formField(s, vals[s.Key], false)
		w.fields = append(w.fields, f)
		w.byKey[s.Key] = f
		add(fs, f.box)
	}
	add(form, fs)

	mode := build(h("fieldset", "class", "group"), h("legend", "The target is about requests that"))
	anyID, overID := w.id("wait-any"), w.id("wait-over")
	w.modeAny = h("input", "type", "radio", "id", anyID, "name", w.id("wait"), "value", "any")
	w.modeOver = h("input", "type", "radio", "id", overID, "name", w.id("wait"), "value", "over")
	setChecked(w.modeAny, !over)
	setChecked(w.modeOver, over)
	lim := w.formField(markup.FieldSpec{Key: "limit_ms", Label: "Limit", Unit: "ms", Mode: "decimal"}, vals["limit_ms"], false)
	w.fields = append(w.fields, lim)
	w.byKey["limit_ms"] = lim
	build(mode, build(h("div", "class", "radio"), w.modeAny, h("label", "for", anyID, "wait at all")),
		build(h("div", "class", "radio"), w.modeOver, h("label", "for", overID, "wait longer than a limit")), lim.box)
	add(form, mode)
	give := build(h("fieldset", "class", "group"), h("legend", "People who give up (Erlang A)"))
	for _, s := range []markup.FieldSpec{{Key: "patience_ms", Label: "Mean patience", Unit: "ms in the queue; 0: nobody gives up", Mode: "decimal"},
		{Key: "abandon_target", Label: "Size for at most this share giving up", Unit: "such as 2%; 0: the target above", Mode: "decimal"}} {
		f := w.formField(s, vals[s.Key], false)
		w.fields = append(w.fields, f)
		w.byKey[s.Key] = f
		add(give, f.box)
	}
	add(form, give)
	if page {
		add(form, build(h("div", "class", "form-actions"), h("button", "type", "submit", "id", w.id("plan-run"), "Plan")))
	}

	w.summary = h("p", "class", "summary", "id", w.id("plan-summary"), "role", "status", "aria-live", "polite")
	w.stale = h("p", "class", "stale-note", "id", w.id("plan-stale-note"), "hidden", "", "These results are for the last valid input.")
	w.answer = h("p", "class", "answer", "id", w.id("plan-answer"))
	w.detail = h("p", "id", w.id("plan-answer-detail"))
	w.oneFewer = h("p", "class", "one-fewer", "id", w.id("plan-one-fewer"))
	w.load = h("p", "class", "plan-load", "id", w.id("plan-load"))
	w.nearby = h("div", "id", w.id("plan-nearby-box"))
	w.chartB = h("div", "class", "chart-box", "id", w.id("plan-chart-box"))
	w.erlangA = h("div", "class", "plan-erlang-a", "id", w.id("plan-erlang-a"))
	w.body = build(h("div", "class", "results-body"),
		build(h("div", "class", "plan-answer"), w.answer, w.detail, w.oneFewer), w.load,
		build(h("details", "class", "nearby", "id", w.id("plan-nearby-details")), h("summary", "Nearby worker counts"), w.nearby),
		w.chartB, w.erlangA)
	w.results = build(h("section", "class", "results", "id", w.id("plan-results"), "aria-labelledby", w.id("plan-title")),
		h("h2", "id", w.id("plan-title"), "The answer"), w.summary, w.stale, w.body)
	if page {
		add(host, build(h("div", "class", "planner-layout"), form, w.results))
	} else {
		firstChild(w.results).SetTextContent("Servers needed")
		w.openPage = newOpenLink(&w.widget, attrs["base"], "planner.html", "Open in the planner")
		add(w.results, w.openPage.p)
		build(host, w.results, form) // a post's widget: its results first
	}

	if !page {
		if bad := unknownAttrs(attrs, func(k string) bool { _, ok := adapter.PlanDefaults[k]; return ok }); len(bad) > 0 {
			w.fixed = "Not settings of the planner (use " + strings.Join(adapter.PlanKeys, ", ") + "): " + strings.Join(bad, ", ") + "."
		}
		if bad := hideControls(form, attrs["controls"]); len(bad) > 0 {
			w.fixed = strings.TrimSpace(w.fixed + " " + bad[0] + ".")
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

func (w *planWidget) schedule() { w.debounce.after(debounceMS) }

// planStart is the form's values for given (a URL query or a widget's
// attributes), and whether the limit is in force: the limit field shows
// 100 ms when it is not, ready for the "longer than" choice.
func planStart(given map[string]string) (map[string]string, bool) {
	vals := maps.Clone(adapter.PlanDefaults)
	for _, k := range adapter.PlanKeys {
		if v, ok := given[k]; ok {
			vals[k] = v
		}
	}
	over := vals["limit_ms"] != "0" && vals["limit_ms"] != ""
	if !over {
		vals["limit_ms"] = "100"
	}
	return vals, over
}

func (w *planWidget) restore() {
	vals, over := planStart(currentQuery())
	for _, f := range w.fields {
		setValue(f.input, vals[f.spec.Key])
	}
	setChecked(w.modeOver, over)
	setChecked(w.modeAny, !over)
	w.committed = locationSearch()
	w.update(false)
}

func (w *planWidget) update(commit bool) {
	w.debounce.stop()
	lim := w.byKey["limit_ms"]
	if w.overMode() {
		lim.input.RemoveAttribute("disabled")
	} else {
		lim.input.SetAttribute("disabled", "")
	}
	vals := w.values()
	if key := valuesKey(adapter.PlanKeys, vals); key != w.lastKey {
		w.lastKey = key
		w.compute(vals)
	}
	if w.page {
		w.syncURL(adapter.EncodeQuery(adapter.PlanKeys, vals, adapter.PlanDefaults), commit)
	}
	if w.openPage != nil {
		w.openPage.to(adapter.EncodeQuery(adapter.PlanKeys, vals, adapter.PlanDefaults))
	}
}

func (w *planWidget) compute(vals map[string]string) {
	in, errs := adapter.PlanFromStrings(vals)
	var a adapter.PlanAnswer
	if len(errs) == 0 {
		a, errs = adapter.ComputePlan(in)
	}
	rest := markAll(w.fields, errs)
	if len(errs) > 0 {
		if len(rest) > 0 {
			w.showError(strings.Join(rest, "; "))
		}
		showStale(w.results, w.stale, w.body, true, w.has)
		w.summary.SetTextContent("Not updated: " + firstProblem(w.fields, errs))
		w.dispatch("shedsim:invalid", adapter.Invalid(errs))
		return
	}
	w.showError("")
	showStale(w.results, w.stale, w.body, false, true)
	w.has = true
	w.render(a)
	w.dispatch("shedsim:plan", adapter.MustJSON(a))
}

func (w *planWidget) render(a adapter.PlanAnswer) {
	p := a.Plan
	in := p.Input
	what := adapter.Waits(in)
	noun := "servers"
	if p.Servers == 1 {
		noun = "server"
	}
	fill(w.answer, h("span", "class", "big", report.Count(p.Servers)), " "+noun)
	w.detail.SetTextContent("With " + report.Count(p.Servers) + ", " + adapter.PlanPercent(p.Answer.Wait) + " of requests " + what +
		" (the target is at most " + adapter.PlanPercent(in.Target) + "). Mean wait " + report.Duration(p.Answer.MeanWaitMS) +
		", p99 wait in the queue " + report.Duration(p.Answer.P99QueueWaitMS) + "; each server is busy " + report.Percent(p.Answer.Utilisation) + " of the time.")
	switch {
	case p.OneFewer == nil:
		w.oneFewer.SetTextContent("One server is the fewest there can be.")
	case !p.OneFewer.Stable:
		w.oneFewer.SetTextContent("With " + report.Count(p.OneFewer.Servers) + ", the servers could not keep up: the queue would grow without end.")
	default:
		w.oneFewer.SetTextContent("With one fewer, " + report.Count(p.OneFewer.Servers) + ", " + adapter.PlanPercent(p.OneFewer.Wait) + " would " + what + ": over the target.")
	}
	w.load.SetTextContent("Offered load: " + report.Number(p.OfferedLoad, 2) + " Erlangs (" + report.Number(in.RateRPS, 2) + "/s x " + report.Duration(in.ServiceMS) +
		"), the average number of busy servers; any count above it keeps up on average. Erlang C assumes random arrivals, exponential service times and nobody giving up.")
	w.summary.SetTextContent(report.Count(p.Servers) + " " + noun + ": " + adapter.PlanPercent(p.Answer.Wait) + " of requests " + what + "; with " +
		strconv.Itoa(p.Servers-1) + ", " + oneFewerShort(p) + ".")

	t := build(h("table", "id", w.id("plan-nearby"), "class", "nearby-table"), h("caption", "How nearby numbers of servers fare"))
	head := h("tr")
	for _, c := range []string{"Servers", "Busy", "Requests that " + what, "Mean queue wait", "p99 queue wait", "Meets the target"} {
		add(head, h("th", "scope", "col", c))
	}
	add(t, build(h("thead"), head))
	body := h("tbody")
	for _, r := range p.Nearby {
		tr := h("tr", "data-servers", strconv.Itoa(r.Servers))
		if r.Servers == p.Servers {
			tr.SetAttribute("class", "answer")
			tr.SetAttribute("aria-current", "true")
		}
		add(tr, h("th", "scope", "row", report.Count(r.Servers)))
		if !r.Stable {
			build(tr, h("td", report.Percent(r.Utilisation)), h("td", "colspan", "4", "cannot keep up: the queue grows without end"))
		} else {
			meets := "no"
			if r.MeetsTarget {
				meets = "yes"
			}
			build(tr, h("td", report.Percent(r.Utilisation)), h("td", adapter.PlanPercent(r.Wait)), h("td", report.Duration(r.MeanWaitMS)),
				h("td", report.Duration(r.P99QueueWaitMS)), h("td", meets))
		}
		add(body, tr)
	}
	add(t, body)
	fill(w.nearby, tableWrap("Nearby worker counts", t))
	fill(w.chartB, renderPlanChart(w.id("plan-chart"), a.Chart, in.Target, what))
	w.renderErlangA(p)
}

// renderErlangA shows Erlang A's answer beside Erlang C's, when people
// give up: the fewest servers, what one fewer costs, and nearby counts,
// over capacity too.
func (w *planWidget) renderErlangA(p plan.Plan) {
	pa, in := p.ErlangA, p.Input
	setHidden(w.erlangA, pa == nil)
	if pa == nil {
		fill(w.erlangA)
		return
	}
	what, target, sized := "wait at all", in.Target, func(r plan.RowA) float64 { return r.WaitOver }
	if in.LimitMS > 0 {
		what = "still wait after " + report.Duration(in.LimitMS)
	}
	if in.AbandonTarget > 0 {
		what, target, sized = "give up", in.AbandonTarget, func(r plan.RowA) float64 { return r.Abandon }
	}
	lead := h("p", "id", w.id("plan-erlang-a-answer"), "When people give up after a mean of "+report.Duration(in.PatienceMS)+" in the queue (Erlang A, M/M/c+M): "+
		report.Count(pa.Servers)+" servers for at most "+adapter.PlanPercent(target)+" to "+what+", against Erlang C's "+report.Count(p.Servers)+
		". With "+report.Count(pa.Servers)+", "+adapter.PlanPercent(pa.Answer.Wait)+" wait at all and "+adapter.PlanPercent(pa.Answer.Abandon)+" give up.")
	more := "Unlike Erlang C, it has an answer over capacity: those who give up keep the queue finite."
	if pa.OneFewer != nil {
		more = "With one fewer, " + adapter.PlanPercent(sized(*pa.OneFewer)) + " would " + what + ". " + more
	}
	t := build(h("table", "id", w.id("plan-erlang-a-nearby"), "class", "nearby-table"), h("caption", "How nearby numbers of servers fare when people give up"))
	head := h("tr")
	cols := []string{"Servers", "Busy", "Wait at all"}
	if in.LimitMS > 0 {
		cols = append(cols, "Still waiting after "+report.Duration(in.LimitMS))
	}
	for _, c := range append(cols, "Give up", "Meets the target") {
		add(head, h("th", "scope", "col", c))
	}
	add(t, build(h("thead"), head))
	body := h("tbody")
	for _, r := range pa.Nearby {
		tr := h("tr", "data-servers", strconv.Itoa(r.Servers))
		if r.Servers == pa.Servers {
			tr.SetAttribute("class", "answer")
		}
		meets := "no"
		if r.MeetsTarget {
			meets = "yes"
		}
		build(tr, h("th", "scope", "row", report.Count(r.Servers)), h("td", report.Percent(r.Utilisation)), h("td", adapter.PlanPercent(r.Wait)))
		if in.LimitMS > 0 {
			add(tr, h("td", adapter.PlanPercent(r.WaitOver)))
		}
		build(tr, h("td", adapter.PlanPercent(r.Abandon)), h("td", meets))
		add(body, tr)
	}
	add(t, body)
	fill(w.erlangA, h("h3", "Erlang A: people who give up"), lead, h("p", more), tableWrap("Erlang A, nearby counts", t))
}

func oneFewerShort(p plan.Plan) string {
	switch {
	case p.OneFewer == nil:
		return "none is not an option"
	case !p.OneFewer.Stable:
		return "the queue would grow without end"
	}
	return adapter.PlanPercent(p.OneFewer.Wait)
}

// renderPlanChart draws the planner's columns and the target line.
func renderPlanChart(id string, ch adapter.PlanChart, target float64, what string) el {
	s := svg("svg", "id", id, "class", "plan-chart", "viewBox", "0 0 "+markup.SvgNum(ch.Width)+" "+markup.SvgNum(ch.Height), "role", "img", "aria-label", ch.Summary)
	p := ch.Plot
	add(s, svg("rect", "class", "plot-bg", "x", markup.SvgNum(p.X), "y", markup.SvgNum(p.Y), "width", markup.SvgNum(p.W), "height", markup.SvgNum(p.H)))
	for _, t := range ch.YTicks {
		add(s, svg("line", "class", "grid", "x1", markup.SvgNum(p.X), "x2", markup.SvgNum(p.X+p.W), "y1", markup.SvgNum(t.At), "y2", markup.SvgNum(t.At)))
		add(s, svg("text", "class", "tick y", "x", markup.SvgNum(p.X-6), "y", markup.SvgNum(t.At+4), "text-anchor", "end", t.Label))
	}
	for _, b := range ch.Bars {
		add(s, build(svg("rect", "class", "col "+b.Kind, "x", markup.SvgNum(b.X), "y", markup.SvgNum(b.Y), "width", markup.SvgNum(b.W), "height", markup.SvgNum(max(b.H, 0.5))), svg("title", b.Label)))
	}
	for _, t := range ch.XTicks {
		add(s, svg("text", "class", "tick x", "x", markup.SvgNum(t.At), "y", markup.SvgNum(p.Y+p.H+18), "text-anchor", "middle", t.Label))
	}
	add(s, svg("line", "class", "target", "x1", markup.SvgNum(p.X), "x2", markup.SvgNum(p.X+p.W), "y1", markup.SvgNum(ch.Target), "y2", markup.SvgNum(ch.Target)))
	add(s, svg("text", "class", "target-label", "x", markup.SvgNum(p.X+p.W-4), "y", markup.SvgNum(ch.Target-5), "text-anchor", "end", "target "+adapter.PlanPercent(target)))
	add(s, svg("line", "class", "axis", "x1", markup.SvgNum(p.X), "x2", markup.SvgNum(p.X+p.W), "y1", markup.SvgNum(p.Y+p.H), "y2", markup.SvgNum(p.Y+p.H)))
	return build(h("figure", "class", "chart"), s,
		h("figcaption", "Share of requests that "+what+", by number of servers; the answer is highlighted, the dashed line is the target. The nearby worker counts above give the numbers as a table."))
}
