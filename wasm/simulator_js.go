//go:build js && wasm

package main

import (
	"maps"
	"strconv"
	"strings"
	"syscall/js"

	"github.com/shedsim/shedsim/sim"
	"github.com/shedsim/shedsim/sim/report"
)

// This file is the simulator widget: it reads the form, recomputes, and
// hands each part its share of the results. The parts draw themselves:
// the form (sim_form_js.go), every policy side by side
// (sim_compare_js.go), the chosen policy over time (sim_timeline_js.go),
// what to change (sim_advice_js.go) and the client strategies
// (sim_clients_js.go).

// debounceMS is how long the simulator waits after the last keystroke
// before it recomputes.
const debounceMS = 150

// simWidget is the simulator: the full page, the compact widget, or
// (kind "chart") just the chart of one run.
type simWidget struct {
	widget
	page  bool
	kind  string
	base  string // the site's address, for links from a widget
	start sim.Config

	form     *simForm
	compare  *comparePart
	timeline *timelinePart
	advice   *advicePart  // the page only
	clients  *clientsPart // the page only
	timing   timingLine   // the page only

	// The results' frame: the heading, the status line and the notes
	// that say the results are stale or missing.
	results, resultsTitle, summary, stale, empty, body el
	openFull                                           *openLink // a widget's link to the full simulator

	view    *report.View
	lastKey string

	// A recompute runs and draws the chosen policy, its chart and its
	// lines first; after the browser has painted them, rest runs the other
	// policies and draws the comparison, then measures the advice, then
	// the client strategies, one run per task, so that neither typing nor
	// a frame is held up by more than a run or two.
	debounce, rest, dim *task
	later               laterWork
	timings             timings
}

// laterWork is what a recompute leaves for after the first paint.
type laterWork struct {
	config sim.Config
	// compared is every policy's run, in the order of sim.Policies, for the
	// comparison and report.Advise, the chosen policy's first (see next);
	// drawn, that the bars and table show them.
	compared []sim.Result
	drawn    bool
	advised  bool // the advice is drawn
	// clients are the client comparison's rows so far, in the order of
	// sim.Clients; rowsDone counts them.
	clients  []report.ClientRow
	rowsDone int
}

// clientsDone reports whether every client strategy has run.
func (l *laterWork) clientsDone() bool { return l.clients != nil && l.rowsDone == len(l.clients) }

// mountSimulator builds the simulator into host. For the page, the values
// come from the URL; for a widget, from its attributes (attrs).
func mountSimulator(host el, prefix string, page bool, kind string, attrs map[string]string) *simWidget {
	w := &simWidget{widget: widget{host: host, prefix: prefix}, page: page, kind: kind}
	w.debounce = w.task(func() { w.update(false) })
	w.rest = w.task(w.continueLater)
	w.dim = w.task(w.dimBusy)
	w.base = attrs["base"]
	given := w.open(page, attrs)

	w.start = sim.DefaultConfig()
	var vals map[string]string
	var startErrs []FieldMsg
	if page {
		vals = queryValues(given)
		// A setting the link gives that counts for nothing is named; the
		// form, which shows every setting, keeps it.
		base := sim.DefaultConfig()
		if s, ok := sim.SampleByKey(given["sample"]); ok {
			base = s.Config
		}
		startErrs = UnusedGiven(base, given, sim.Scope{EveryPolicy: true})
	} else {
		if s, ok := sim.SampleByKey(attrs["sample"]); ok {
			w.start = s.Config
		} else if attrs["sample"] != "" {
			startErrs = append(startErrs, FieldMsg{"sample", strconv.Quote(attrs["sample"]) + " is not a sample: use one of " + strings.Join(sim.SampleKeys(), ", ")})
		}
		// Keep the attributes that are fine; name the others, settings
		// or not (the loader's own are not settings, and not errors).
		given := maps.Clone(given)
		// An attribute that counts for nothing is one of those.
		scope := sim.Scope{EveryPolicy: true}
		c, errs := ConfigFromGiven(w.start, given, 1, scope, loaderAttrs...)
		if len(errs) > 0 {
			startErrs = append(startErrs, errs...)
			for _, e := range errs {
				delete(given, e.Field)
			}
			c, errs = ConfigFromGiven(w.start, given, 1, scope, loaderAttrs...)
		}
		if len(errs) == 0 {
			w.start = c
		} else {
			given = nil
		}
		vals = ConfigStrings(w.start)
		for k, v := range given {
			if _, ok := fieldByKey(k); ok {
				vals[k] = v
			}
		}
	}

	w.form = newSimForm(&w.widget, w.start)
	if page {
		w.form.buildPage(vals)
		w.onEl(w.form.reset, "click", func(js.Value) { w.applySample("sale") })
	} else {
		specs, problem := widgetControls(kind, attrs["controls"])
		if problem != "" {
			startErrs = append(startErrs, FieldMsg{"controls", problem})
		}
		w.form.buildWidget(specs, vals)
	}
	w.buildResults()
	form := w.form.el
	if page {
		add(host, build(h("div", "class", "sim-layout"), form, w.results))
	} else {
		// A post's widget shows its results first, and what changes them
		// under them.
		add(host, w.results)
		if form != nil {
			add(host, form)
		}
	}

	if form != nil {
		w.onEl(form, "input", func(js.Value) { w.schedule() })
		w.onEl(form, "change", func(ev js.Value) {
			if w.form.isSample(wrap(ev.Get("target"))) {
				w.applySample(value(w.form.sample))
				return
			}
			w.update(true)
		})
		w.onEl(form, "submit", func(ev js.Value) {
			ev.Call("preventDefault")
			w.update(true)
		})
	}
	if page {
		w.on(js.Global(), "popstate", func(js.Value) { w.restore() })
	}
	if len(startErrs) > 0 {
		// The attributes (or the link) themselves are wrong: say so, and
		// run the rest.
		var msgs []string
		for _, e := range startErrs {
			msgs = append(msgs, e.Field+": "+e.Msg)
		}
		what := "This widget's attributes have"
		if page {
			what = "This link's settings have"
		}
		w.fixed = what + " a problem: " + strings.Join(msgs, "; ") + "."
		w.showError("")
	}
	w.update(false)
	return w
}

// buildResults builds the (empty) results area and its parts.
func (w *simWidget) buildResults() {
	w.summary = h("p", "class", "summary", "id", w.id("summary"), "role", "status", "aria-live", "polite", "Computing…")
	w.stale = h("p", "class", "stale-note", "id", w.id("stale-note"), "hidden", "", "These results are for the last valid input.")
	w.empty = h("p", "class", "empty-note", "id", w.id("empty-note"), "hidden", "", "No results yet: fix the marked fields.")
	w.body = h("div", "class", "results-body", "id", w.id("results-body"))
	w.results = h("section", "class", "results", "id", w.id("results"), "aria-labelledby", w.id("results-title"))
	title := "Results"
	if !w.page {
		title = "Every policy in the sale"
	}
	headTag := "h2"
	if !w.page {
		headTag = "h3"
	}
	w.resultsTitle = h(headTag, "id", w.id("results-title"), "tabindex", "-1", title)
	build(w.results, w.resultsTitle, w.summary, w.stale, w.empty, w.body)

	w.compare = newComparePart(&w.widget, w.page, w.kind != "chart")
	w.timeline = newTimelinePart(&w.widget, w.page)
	switch {
	case w.page:
		w.advice = newAdvicePart(&w.widget)
		w.clients = newClientsPart(&w.widget)
		w.timing = timingLine{h("span", "class", "timing", "id", w.id("timing"))}
		csv := h("button", "type", "button", "id", w.id("download-csv"), "class", "secondary", "Download CSV")
		jsn := h("button", "type", "button", "id", w.id("download-json"), "class", "secondary", "Download JSON")
		w.onEl(csv, "click", func(js.Value) { w.download("csv") })
		w.onEl(jsn, "click", func(js.Value) { w.download("json") })
		w.onEl(w.advice.list, "click", w.tryAdvice)
		build(w.body,
			w.compare.section(&w.widget),
			w.clients.section,
			w.timeline.section(&w.widget),
			w.advice.section(),
			w.timeline.fluidDetails(),
			build(h("p", "class", "downloads"), csv, " ", jsn, " ", w.timing.el))
	case w.kind == "chart":
		// The section's heading is the chart's title.
		w.timeline.title = firstChild(w.results)
		build(w.body, w.timeline.chart, w.timeline.lines)
	case w.kind == "compare":
		w.compare.table, w.compare.tableID = h("div", "id", w.id("table-box")), w.id("compare")
		build(w.body, legend("answered", "refused", "timed_out"), w.compare.bars,
			build(h("details", "class", "compare-details"), h("summary", "Every number, as a table"), w.compare.table))
	default:
		build(w.body, legend("answered", "refused", "timed_out"), w.compare.bars, w.timeline.title, w.timeline.chart, w.timeline.lines)
	}
	if !w.page {
		w.openFull = newOpenLink(&w.widget, w.base, "index.html", "Open in the full simulator")
		add(w.body, w.openFull.p)
	}
}

// schedule recomputes debounceMS after the last keystroke.
func (w *simWidget) schedule() { w.debounce.after(debounceMS) }

// update recomputes if the form changed, and keeps the URL in step:
// replaceState while typing, pushState when a change is committed (a
// select, a sample, leaving a field, Enter, Run, Try it).
func (w *simWidget) update(commit bool) {
	w.debounce.stop()
	vals := w.computeIfChanged()
	q := encodeQuery(configKeys, vals, defaults)
	if w.page {
		w.syncURL(q, commit)
	} else {
		w.openFull.to(q)
	}
}

// restore reads the URL after Back or Forward.
func (w *simWidget) restore() {
	w.form.setValues(queryValues(currentQuery()))
	w.committed = locationSearch()
	w.computeIfChanged() // not, say, Back from a #fragment
}

// computeIfChanged reads the form and recomputes if it changed; it returns
// the values it read.
func (w *simWidget) computeIfChanged() map[string]string {
	vals := w.form.values()
	if k := valuesKey(configKeys, vals); k != w.lastKey {
		w.lastKey = k
		w.compute(vals)
	}
	return vals
}

// applySample sets the form to a sample's Config and commits it.
func (w *simWidget) applySample(key string) {
	s, ok := sim.SampleByKey(key)
	if !ok {
		return
	}
	w.form.setValues(ConfigStrings(s.Config))
	w.update(true)
}

// compute builds the view of vals and shows it, or marks what is wrong.
// It runs and draws the chosen policy, its chart and its lines, and leaves
// the other policies, the advice and the client comparison to w.rest,
// after the browser has painted.
func (w *simWidget) compute(vals map[string]string) {
	c, errs := ConfigFromStrings(w.start, vals, viewRuns)
	var v report.View
	var buildMS float64
	if len(errs) == 0 {
		t := now()
		var err error
		v, err = report.BuildChosen(c)
		buildMS = now() - t
		if err != nil {
			errs = simErrors(err, nil)
		}
	}
	fields := w.form.fields
	rest := markAll(fields, errs)
	if len(errs) > 0 {
		// What is still to come belongs to the last valid input, whose
		// results stay on show: it finishes.
		problem := firstProblem(fields, errs)
		if len(rest) > 0 && !w.page {
			w.showError("This widget's settings have a problem: " + strings.Join(rest, "; "))
		}
		w.setStale(true, "Not updated: "+problem)
		w.dispatch("shedsim:invalid", invalid(errs))
		return
	}
	if !w.page {
		w.showError("")
	}
	t := now()
	first := w.view == nil
	w.render(v)
	w.view = &v
	w.setStale(false, "")
	w.timings = timings{build: buildMS, draw: now() - t}
	w.timings.first = w.timings.build + w.timings.draw
	w.later = laterWork{config: c, compared: samePolicies(w.later, c)}
	w.later.compared[c.Policy] = v.Chosen
	w.markBusy()
	if _, more := w.later.next(); !more {
		w.runNextPolicy() // only the policy changed: the others' runs stand, and are drawn at once
	} else {
		w.rowsPending(first)
	}
	w.showTimings()
	w.rest.afterPaint()
}

// render shows a view's chosen policy: the headline, what the form says
// about its inputs, and the chart over time.
func (w *simWidget) render(v report.View) {
	w.summary.SetTextContent(report.Headline(v.Chosen))
	w.form.show(v)
	if w.kind != "compare" { // which draws no chart
		w.timeline.render(v)
	}
}

// next is the next policy of the comparison still to run; false when all
// have run. A run's Config has a worker; one not run yet is zero.
func (l *laterWork) next() (sim.Policy, bool) {
	for _, p := range sim.Policies {
		if l.compared[p].Config.Workers == 0 {
			return p, true
		}
	}
	return 0, false
}

// samePolicies is a new comparison for c: the runs of the last one where
// c differs from its config in the policy alone (the other policies' runs
// are then the same), none otherwise.
func samePolicies(last laterWork, c sim.Config) []sim.Result {
	out := make([]sim.Result, len(sim.Policies))
	same := last.config
	same.Policy = c.Policy
	if last.compared != nil && same == c {
		copy(out, last.compared)
	}
	return out
}

// rowsPending marks the comparison as being run: the last input's bars
// and table stay on show, or on the first recompute the policies' names
// alone, so that nothing moves when the numbers come.
func (w *simWidget) rowsPending(first bool) {
	w.results.SetAttribute("data-rows", "pending")
	if first {
		w.compare.placeholders(w.later.config)
	}
}

// runNextPolicy runs the next policy of the comparison; once all have run,
// it draws the bars and the table. It reports whether it did either.
func (w *simWidget) runNextPolicy() bool {
	l := &w.later
	if l.drawn {
		return false
	}
	start := now()
	defer func() { w.timings.step = max(w.timings.step, now()-start) }()
	if p, more := l.next(); more {
		alt := l.config
		alt.Policy = p
		r, err := sim.Run(alt)
		if err != nil {
			panic(err) // the config ran under its own policy, and validity does not depend on the policy
		}
		l.compared[p] = r
		w.timings.build += now() - start
		if _, more := l.next(); more {
			return true
		}
	}
	t := now()
	w.view.Rows = report.Rows(l.compared)
	w.compare.draw(w.view.Config, w.view.Rows, false)
	l.drawn = true
	w.results.RemoveAttribute("data-rows")
	for _, e := range w.compare.measuredLater() {
		measured(e)
	}
	w.timings.draw += now() - t
	return true
}

// continueLater is w.rest: the other policies, one run per task, then the
// advice, then the client strategies one run at a time, each in its own
// task.
func (w *simWidget) continueLater() {
	l := &w.later
	if w.view == nil || l.compared == nil {
		return
	}
	if w.runNextPolicy() {
		w.showTimings()
		w.rest.after(0)
		return
	}
	if !l.advised {
		t := now()
		adv, err := report.Advise(l.config, l.compared)
		if err != nil {
			panic(err) // the config was valid, and ran under every policy
		}
		w.view.Advice = adv
		if w.advice != nil {
			w.advice.render(adv, w.view.Config)
		}
		l.advised = true
		w.timings.advice = now() - t
		w.showTimings()
		console("shedsim: " + f1(w.timings.first) + " ms for your policy run and drawn, " + f1(w.timings.build) + " ms for every policy, " + f1(w.timings.draw) + " ms drawing, " + f1(w.timings.advice) +
			" ms the advice; " + report.Count(int(l.config.ExpectedAttempts())) + " attempts expected per run")
		w.dispatch("shedsim:result", `{"view":`+mustJSON(*w.view)+`,"first_ms":`+fnum(w.timings.first)+`,"build_ms":`+fnum(w.timings.build)+`,"advice_ms":`+fnum(w.timings.advice)+`}`)
		if w.clients != nil {
			l.clients = make([]report.ClientRow, len(sim.Clients))
			w.dim.after(dimAfterMS) // the clients' runs start now
			w.rest.after(0)
		}
		return
	}
	if w.clients == nil || l.rowsDone >= len(l.clients) {
		return
	}
	t := now()
	r, err := ClientRun(l.config, w.view.Chosen, sim.Clients[l.rowsDone])
	if err != nil {
		panic(err)
	}
	l.clients[l.rowsDone] = report.ClientRowOf(r)
	l.rowsDone++
	w.timings.clients += now() - t
	if l.rowsDone < len(l.clients) {
		w.rest.after(0)
		return
	}
	t = now()
	cv := report.ClientView{Config: l.config, Rows: l.clients}
	w.clients.render(cv)
	w.timings.clients += now() - t
	measured(w.clients.section)
	w.showTimings()
	w.dispatch("shedsim:clients", `{"view":`+mustJSON(cv)+`,"clients_ms":`+fnum(w.timings.clients)+`}`)
}

// showTimings writes the last recompute's timings into #timing.
func (w *simWidget) showTimings() {
	w.timing.show(w.timings, w.later.drawn, w.later.advised, w.later.clientsDone())
}

// setStale marks the results as stale (or not), with a status message.
func (w *simWidget) setStale(stale bool, msg string) {
	has := w.view != nil
	if stale {
		w.results.Class().Add("stale")
	} else {
		w.results.Class().Remove("stale")
	}
	setHidden(w.stale, !(stale && has))
	setHidden(w.empty, !(stale && !has))
	setHidden(w.body, stale && !has)
	if stale {
		w.summary.SetTextContent(msg)
	}
}

// tryAdvice is the advice list's click listener: "Try it" sets the form to
// the advice's Config.
func (w *simWidget) tryAdvice(ev js.Value) {
	a, ok := w.advice.tried(ev)
	if !ok || w.view == nil {
		return
	}
	w.form.setValues(ConfigStrings(a.Config))
	w.update(true)
	w.resultsTitle.Focus()
}

// dimAfterMS is how long a part of the results may be measured again
// before it is dimmed: the numbers of a recompute that finishes sooner, as
// one does on a laptop, change without a flash.
const dimAfterMS = 120

// markBusy marks the parts a recompute measures after its first paint
// (the comparison, the advice, the client strategies) as being measured
// again: aria-busy now, dimmed if they still are after dimAfterMS. What
// they show until then is the last input's.
func (w *simWidget) markBusy() {
	for _, e := range w.measuredLater() {
		e.SetAttribute("aria-busy", "true")
	}
	w.dim.after(dimAfterMS)
}

// dimBusy is w.dim: it dims the parts still being measured.
func (w *simWidget) dimBusy() {
	for _, e := range w.measuredLater() {
		if e.GetAttribute("aria-busy") == "true" {
			e.Class().Add("pending")
		}
	}
}

// measuredLater are the widget's parts that a recompute measures after its
// first paint.
func (w *simWidget) measuredLater() []el {
	all := w.compare.measuredLater()
	if w.advice != nil {
		all = append(all, w.advice.list)
	}
	if w.clients != nil {
		all = append(all, w.clients.section)
	}
	var out []el
	for _, e := range all {
		if e != nil {
			out = append(out, e)
		}
	}
	return out
}

// measured marks e as measured for the current input: no longer
// aria-busy, nor dimmed.
func measured(e el) {
	if e == nil {
		return
	}
	e.RemoveAttribute("aria-busy")
	e.Class().Remove("pending")
}

// download saves the current results as CSV or JSON.
func (w *simWidget) download(format string) {
	if w.view == nil {
		return
	}
	if !w.later.advised && w.later.compared != nil {
		// The comparison and the advice belong in the file: measure them
		// now, in this one task, which the step time then counts whole.
		start, step := now(), w.timings.step
		for w.runNextPolicy() {
			// one policy a call, then the bars and the table
		}
		w.timings.step = max(step, now()-start)
		w.continueLater()
	}
	name := "shedsim-" + w.view.Config.Policy.String()
	var text, typ string
	if format == "csv" {
		text, typ, name = ViewCSV(*w.view), "text/csv", name+".csv"
	} else {
		// Indented by JavaScript: marshal writes compact JSON only.
		JSON := js.Global().Get("JSON")
		text = JSON.Call("stringify", JSON.Call("parse", mustJSON(w.view)), nil, 2).String()
		text, typ, name = text+"\n", "application/json", name+".json"
	}
	saveFile(name, typ, text)
}

// saveFile offers text as a download through a Blob and a[download]
// (dom/v2 has no Blob, so this is syscall/js).
func saveFile(name, typ, text string) {
	blob := js.Global().Get("Blob").New([]any{text}, map[string]any{"type": typ})
	u := js.Global().Get("URL").Call("createObjectURL", blob)
	a := h("a", "href", u.String(), "download", name, "hidden", "")
	add(wrap(docJS.Get("body")), a)
	a.Click()
	a.Remove()
	// The URL is revoked a second later, when the download has started;
	// the one-shot function releases itself.
	var revoke js.Func
	revoke = js.FuncOf(func(js.Value, []js.Value) any {
		js.Global().Get("URL").Call("revokeObjectURL", u)
		revoke.Release()
		return nil
	})
	js.Global().Call("setTimeout", revoke, 1000)
}
