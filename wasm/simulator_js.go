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

// debounceMS is how long the simulator waits after the last keystroke
// before it recomputes.
const debounceMS = 150

// simGroup is one fieldset of the simulator's form.
type simGroup struct {
	legend   string
	advanced bool // inside the "Advanced" <details>
	fields   []fieldSpec
}

// simGroups is the simulator page's form. Config keys not listed here
// (fields the engine grows later) are added to the advanced group.
var simGroups = []simGroup{
	{"Service", false, []fieldSpec{{"policy", "Policy", "", ""}, {"workers", "Workers", "", "numeric"}, {"service_ms", "Service time", "ms, mean", "decimal"}}},
	{"Traffic", false, []fieldSpec{{"normal_rps", "Normal traffic", "people per s", "decimal"}, {"sale_rps", "Sale traffic", "people per s", "decimal"},
		{"sale_start_s", "Sale starts at", "s", "decimal"}, {"sale_s", "Sale lasts", "s", "decimal"}, {"duration_s", "Run length", "s", "decimal"}}},
	{"Clients", false, []fieldSpec{{"timeout_ms", "Client timeout", "ms", "decimal"}, {"retries", "Retries", "per person", "numeric"}, {"retry_delay_ms", "Retry delay", "ms", "decimal"},
		{"client", "Retry strategy", "", ""}}},
	{"Queue and refusals", false, []fieldSpec{{"queue", "Queue size", "0 = automatic", "numeric"}, {"refusal_cost_ms", "Refusal cost", "ms", "decimal"}, {"order_share", "Order share", "0 to 1", "decimal"}}},
	{"Run", false, []fieldSpec{{"seed", "Seed", "", "numeric"}}},
	{"Advanced", true, []fieldSpec{{"codel_target_ms", "Queue timeout target (M)", "ms", "decimal"}, {"codel_interval_ms", "Queue timeout interval (N)", "ms", "decimal"},
		{"retry_jitter_ms", "Retry jitter", "ms", "decimal"}}},
}

// compactFields are the controls of the <shed-sim> simulator widget.
var compactFields = []fieldSpec{{"policy", "Policy", "", ""}, {"sale_rps", "Sale traffic", "per s", "decimal"}, {"retries", "Retries", "", "numeric"}}

// simWidget is the simulator: the full page, the compact widget, or
// (kind "chart") just the chart of one run.
type simWidget struct {
	widget
	page  bool
	kind  string
	base  string // the site's address, for links from a widget
	start sim.Config
	// startVals is start as strings: the values of the keys the form has
	// no field for, and of any a new set of values leaves out.
	startVals           map[string]string
	fields              []*field
	byKey               map[string]*field
	sample, sampleAbout el // the samples menu and the line under it (the page)

	resultsTitle, barsTitle el // barsTitle: the page only
	openFull                el // a widget's link to the full simulator

	results, summary, stale, body                el
	bars, table, about, chartTitle, chart, lines el
	advice, fluid, timing, downloads, empty      el
	// The client comparison (the page only).
	clients, clientsLead, clientsBars, clientsTable, clientsFluid el

	view    *report.View
	lastKey string
	// shownAdvice is the advice on screen, whose "Try it" buttons work
	// while the next input's is being measured.
	shownAdvice []report.Advice

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

// timings are the last recompute's, in milliseconds, for #timing: first,
// the chosen policy run and drawn; build and draw, every policy's; step,
// the longest of the tasks that run the other policies and draw them.
type timings struct {
	first, build, draw, step, advice, clients float64
}

func clientOptions() [][2]string {
	var out [][2]string
	for _, c := range sim.Clients {
		out = append(out, [2]string{c.String(), c.Title()})
	}
	return out
}

func policyOptions() [][2]string {
	var out [][2]string
	for _, p := range sim.Policies {
		out = append(out, [2]string{p.String(), p.Title()})
	}
	return out
}

// humanize turns a key such as "backoff_base_ms" into a label, "Backoff
// base", and its unit, "ms".
func humanize(key string) (label, unit string) {
	words := strings.Split(key, "_")
	if last := words[len(words)-1]; len(words) > 1 && (last == "ms" || last == "s") {
		unit, words = last, words[:len(words)-1]
	}
	label = strings.Join(words, " ")
	return strings.ToUpper(label[:1]) + label[1:], unit
}

// mountSimulator builds the simulator into host. For the page, the values
// come from the URL; for a widget, from its attributes (attrs).
func mountSimulator(host el, prefix string, page bool, kind string, attrs map[string]string) *simWidget {
	w := &simWidget{widget: widget{host: host, prefix: prefix}, page: page, kind: kind, byKey: map[string]*field{}}
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
	} else {
		if s, ok := sim.SampleByKey(attrs["sample"]); ok {
			w.start = s.Config
		} else if attrs["sample"] != "" {
			startErrs = append(startErrs, FieldMsg{"sample", strconv.Quote(attrs["sample"]) + " is not a sample: use one of " + strings.Join(sim.SampleKeys(), ", ")})
		}
		// Keep the attributes that are fine; name the others, settings
		// or not (the loader's own are not settings, and not errors).
		given := maps.Clone(given)
		c, errs := ConfigFromStrings(w.start, given, 1, loaderAttrs...)
		if len(errs) > 0 {
			startErrs = append(startErrs, errs...)
			for _, e := range errs {
				delete(given, e.Field)
			}
			c, errs = ConfigFromStrings(w.start, given, 1, loaderAttrs...)
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
	w.startVals = ConfigStrings(w.start)

	var form el
	switch {
	case page:
		form = w.buildPageForm(vals)
	case kind == "simulator":
		form = h("form", "class", "widget-controls", "novalidate", "")
		row := h("div", "class", "field-row")
		for _, s := range compactFields {
			add(row, w.addField(s, vals[s.Key]).box)
		}
		add(form, row)
	}
	w.buildResults()
	if page {
		add(host, build(h("div", "class", "sim-layout"), form, w.results))
	} else {
		if form != nil {
			add(host, form)
		}
		add(host, w.results)
	}

	if form != nil {
		w.onEl(form, "input", func(js.Value) { w.schedule() })
		w.onEl(form, "change", func(ev js.Value) {
			if w.sample != nil && ev.Get("target").Equal(w.sample.Underlying()) {
				w.applySample(value(w.sample))
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
	if len(startErrs) > 0 && !page {
		// The attributes themselves are wrong: say so, and run the rest.
		var msgs []string
		for _, e := range startErrs {
			msgs = append(msgs, e.Field+": "+e.Msg)
		}
		w.fixed = "This widget's attributes have a problem: " + strings.Join(msgs, "; ") + "."
		w.showError("")
	}
	w.update(false)
	return w
}

// addField renders one field of the form and records it.
func (w *simWidget) addField(s fieldSpec, val string) *field {
	var f *field
	switch s.Key {
	case "policy":
		f = w.selectField(s, policyOptions(), canonicalChoice(s.Key, val))
	case "client":
		f = w.selectField(s, clientOptions(), canonicalChoice(s.Key, val))
	default:
		f = w.textField(s, val, s.Key == "queue")
	}
	w.fields = append(w.fields, f)
	w.byKey[s.Key] = f
	return f
}

// buildPageForm builds the simulator page's whole form.
func (w *simWidget) buildPageForm(vals map[string]string) el {
	form := build(h("form", "id", w.id("sim-form"), "class", "controls", "novalidate", "", "aria-labelledby", w.id("form-title")),
		h("h2", "id", w.id("form-title"), "Your numbers"))

	// The samples.
	sel := h("select", "id", w.id("in-sample"), "name", "sample")
	add(sel, h("option", "value", "custom", "Your own numbers"))
	for _, s := range sim.Samples() {
		add(sel, h("option", "value", s.Key, s.Name))
	}
	w.sample = sel
	w.sampleAbout = h("p", "class", "field-hint", "id", w.id("sample-about"))
	add(form, build(h("div", "class", "field sample-field"), h("label", "for", w.id("in-sample"), "Start from a sample"), sel, w.sampleAbout))
	sel.SetAttribute("aria-describedby", w.id("sample-about"))

	listed := map[string]bool{}
	for _, g := range simGroups {
		for _, s := range g.fields {
			listed[s.Key] = true
		}
	}
	for _, g := range simGroups {
		specs := g.fields
		if g.advanced {
			for _, f := range configFields {
				if !listed[f.Key] {
					label, unit := humanize(f.Key)
					mode := "decimal"
					switch f.kind {
					case kindText:
						mode = "text"
					case kindInt, kindSeed:
						mode = "numeric"
					}
					specs = append(specs, fieldSpec{f.Key, label, unit, mode})
				}
			}
		}
		fs := build(h("fieldset", "class", "group"), h("legend", g.legend))
		if g.advanced {
			// The <summary> says it already; the legend stays for screen readers.
			fs = build(h("fieldset", "class", "group"), h("legend", "class", "visually-hidden", g.legend))
		}
		for _, s := range specs {
			if _, ok := fieldByKey(s.Key); !ok {
				continue // a key the engine no longer has
			}
			add(fs, w.addField(s, vals[s.Key]).box)
		}
		if g.advanced {
			add(form, build(h("details", "class", "advanced", "id", w.id("advanced")), h("summary", "Advanced: the queue timeout, jitter and the rest"), fs))
		} else {
			add(form, fs)
		}
	}
	reset := h("button", "type", "button", "id", w.id("reset"), "class", "secondary", "Back to the shop's numbers")
	add(form, build(h("div", "class", "form-actions"), h("button", "type", "submit", "id", w.id("run"), "Run"), reset))
	w.onEl(reset, "click", func(js.Value) { w.applySample("sale") })
	return form
}

// buildResults builds the (empty) results area.
func (w *simWidget) buildResults() {
	w.summary = h("p", "class", "summary", "id", w.id("summary"), "role", "status", "aria-live", "polite", "Computing…")
	w.stale = h("p", "class", "stale-note", "id", w.id("stale-note"), "hidden", "", "These results are for the last valid input.")
	w.empty = h("p", "class", "empty-note", "id", w.id("empty-note"), "hidden", "", "No results yet: fix the marked fields.")
	w.bars = h("div", "id", w.id("bars"), "class", "bars")
	w.chartTitle = h("h3", "id", w.id("chart-title"))
	w.chart = h("div", "id", w.id("chart-box"), "class", "chart-box")
	w.lines = h("div", "class", "lines", "id", w.id("lines"))
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

	switch {
	case w.page:
		w.barsTitle = h("h3", "id", w.id("bars-title"), "Every policy, for the people who arrived during the sale")
		w.table = h("div", "id", w.id("table-box"))
		w.about = h("p", "class", "note", "id", w.id("about-numbers"))
		w.advice = h("ol", "class", "advice", "id", w.id("advice"))
		w.fluid = h("ul", "class", "fluid", "id", w.id("fluid"))
		w.timing = h("span", "class", "timing", "id", w.id("timing"))
		csv := h("button", "type", "button", "id", w.id("download-csv"), "class", "secondary", "Download CSV")
		jsn := h("button", "type", "button", "id", w.id("download-json"), "class", "secondary", "Download JSON")
		w.onEl(csv, "click", func(js.Value) { w.download("csv") })
		w.onEl(jsn, "click", func(js.Value) { w.download("json") })
		w.downloads = build(h("p", "class", "downloads"), csv, " ", jsn, " ", w.timing)
		w.onEl(w.advice, "click", w.tryAdvice)
		build(w.body,
			build(h("section", "class", "block", "aria-labelledby", w.id("bars-title")),
				w.barsTitle,
				legend("answered", "refused", "timed_out"), w.bars, w.table, w.about),
			w.buildClients(),
			build(h("section", "class", "block", "aria-labelledby", w.id("chart-title")), w.chartTitle, w.chart, w.lines),
			build(h("section", "class", "block", "aria-labelledby", w.id("advice-title")), h("h3", "id", w.id("advice-title"), "What to change"), w.advice),
			build(h("details", "class", "fluid-details"), h("summary", "The fluid view: does a full unbounded queue drain after the sale?"), w.fluid),
			w.downloads)
	case w.kind == "chart":
		// The section's heading is the chart's title.
		w.chartTitle = firstChild(w.results)
		build(w.body, w.chart, w.lines)
	default:
		build(w.body, legend("answered", "refused", "timed_out"), w.bars, w.chartTitle, w.chart, w.lines)
	}
	if !w.page {
		w.openFull = h("a", "class", "open-full", "id", w.id("open-full"), "href", w.base+"index.html", "Open in the full simulator")
		add(w.body, build(h("p", "class", "open-full-p"), w.openFull))
	}
}

// values reads the form: every Config key, from the start Config and the
// fields.
func (w *simWidget) values() map[string]string {
	vals := maps.Clone(w.startVals)
	for _, f := range w.fields {
		vals[f.spec.Key] = value(f.input)
	}
	return vals
}

// setValues writes vals into the fields (all of them: a value missing
// from vals is the default's).
func (w *simWidget) setValues(vals map[string]string) {
	d := w.startVals
	for _, f := range w.fields {
		v, ok := vals[f.spec.Key]
		if !ok {
			v = d[f.spec.Key]
		}
		keepChoice(f.input, canonicalChoice(f.spec.Key, v))
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
		w.openFull.SetAttribute("href", w.base+"index.html"+q)
	}
}

// restore reads the URL after Back or Forward.
func (w *simWidget) restore() {
	w.setValues(queryValues(currentQuery()))
	w.committed = locationSearch()
	w.computeIfChanged() // not, say, Back from a #fragment
}

// computeIfChanged reads the form and recomputes if it changed; it returns
// the values it read.
func (w *simWidget) computeIfChanged() map[string]string {
	vals := w.values()
	if k := valuesKey(configKeys, vals); k != w.lastKey {
		w.lastKey = k
		w.compute(vals)
	}
	return vals
}

// queryValues is the page's values for a URL query: its sample's Config,
// or the default, with each Config key the query gives.
func queryValues(q map[string]string) map[string]string {
	c := sim.DefaultConfig()
	if s, ok := sim.SampleByKey(q["sample"]); ok {
		c = s.Config
	}
	vals := ConfigStrings(c)
	for k, v := range q {
		if _, ok := fieldByKey(k); ok {
			vals[k] = v
		}
	}
	return vals
}

// applySample sets the form to a sample's Config and commits it.
func (w *simWidget) applySample(key string) {
	s, ok := sim.SampleByKey(key)
	if !ok {
		return
	}
	w.setValues(ConfigStrings(s.Config))
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
	rest := markAll(w.fields, errs)
	if len(errs) > 0 {
		// What is still to come belongs to the last valid input, whose
		// results stay on show: it finishes.
		problem := firstProblem(w.fields, errs)
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
	if !first {
		return
	}
	rows := make([]report.Row, len(sim.Policies))
	for i, p := range sim.Policies {
		rows[i] = report.Row{Policy: p, Title: p.Title()}
	}
	w.drawRows(w.later.config, rows, true)
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
	w.drawRows(w.view.Config, w.view.Rows, false)
	l.drawn = true
	w.results.RemoveAttribute("data-rows")
	measured(w.bars)
	measured(w.table)
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
		w.renderAdvice(adv)
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
	w.renderClients(cv)
	w.timings.clients += now() - t
	measured(w.clients)
	w.showTimings()
	w.dispatch("shedsim:clients", `{"view":`+mustJSON(cv)+`,"clients_ms":`+fnum(w.timings.clients)+`}`)
}

// showTimings writes the last recompute's timings into #timing.
func (w *simWidget) showTimings() {
	if w.timing == nil {
		return
	}
	t := w.timings
	text := "Your policy in " + f1(t.first) + " ms, run and drawn"
	w.timing.SetAttribute("data-first-ms", fnum(t.first))
	if w.later.drawn {
		text += "; every policy in " + f1(t.build) + " ms, drawn in " + f1(t.draw) + " ms, " + f1(t.step) + " ms at most at a time"
		w.timing.SetAttribute("data-build-ms", fnum(t.build))
		w.timing.SetAttribute("data-draw-ms", fnum(t.draw))
		w.timing.SetAttribute("data-step-ms", fnum(t.step))
	} else {
		w.timing.RemoveAttribute("data-build-ms")
		w.timing.RemoveAttribute("data-draw-ms")
		w.timing.RemoveAttribute("data-step-ms")
	}
	if w.later.advised {
		text += "; the advice in " + f1(t.advice) + " ms"
		w.timing.SetAttribute("data-advice-ms", fnum(t.advice))
	} else {
		w.timing.RemoveAttribute("data-advice-ms")
	}
	if w.later.clients != nil && w.later.rowsDone == len(w.later.clients) {
		text += "; the clients in " + f1(t.clients) + " ms"
		w.timing.SetAttribute("data-clients-ms", fnum(t.clients))
	} else {
		w.timing.RemoveAttribute("data-clients-ms")
	}
	w.timing.SetTextContent(text + ".")
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

// render shows a view's chosen policy: everything but the comparison of
// every policy (drawRows) and the advice.
func (w *simWidget) render(v report.View) {
	c := v.Config
	r := v.Chosen
	w.summary.SetTextContent(c.Policy.Title() + ": " + report.SaleShares(r) + "; " + report.Recovered(r) + ".")
	if f := w.byKey["queue"]; f != nil && f.hint != nil {
		f.hint.SetTextContent(QueueHint(v))
	}
	if w.sample != nil {
		key := "custom"
		about := "Your own numbers: pick a sample to start from one of the post's situations."
		for _, s := range sim.Samples() {
			if s.Config == c {
				key, about = s.Key, s.About
				break
			}
		}
		setValue(w.sample, key)
		w.sampleAbout.SetTextContent(about)
	}
	w.chartTitle.SetTextContent(c.Policy.Title() + " over time")
	fill(w.chart, renderChart(w.id("chart"), v.Chart, r,
		"Answered, refused and timed out per 10 s of arrivals with "+report.PolicyNoun(c.Policy)+"; "+report.SaleBand(c)+"."))
	fill(w.lines, renderLine(w.id("outlook"), v.Outlook), renderLine(w.id("this-run"), v.ThisRun))
	if w.fluid != nil {
		clear(w.fluid)
		for _, l := range v.Fluid {
			add(w.fluid, h("li", l))
		}
	}
}

// drawRows shows the comparison of every policy under c: the bars, and on
// the page the table, its heading and the note under it; placeholder rows
// show the policies' names alone.
func (w *simWidget) drawRows(c sim.Config, rows []report.Row, placeholder bool) {
	if w.barsTitle != nil {
		w.barsTitle.SetTextContent("Every policy, for the people who arrived " + report.SaleArrivals(c))
	}
	if w.kind != "chart" || w.page {
		fill(w.bars, renderBars(rows, c.Policy, placeholder))
	}
	if w.table != nil {
		fill(w.table, renderPolicyTable(w.id("compare"), rows, c, placeholder))
	}
	if w.about != nil {
		w.about.SetTextContent(report.AboutTheNumbers(c))
	}
}

// renderAdvice shows what to change; each item's "Try it" button carries
// its index (one listener on the list serves them all).
func (w *simWidget) renderAdvice(advice []report.Advice) {
	if w.advice == nil {
		return
	}
	clear(w.advice)
	w.shownAdvice = advice
	for i, a := range advice {
		textID := w.id("advice-" + strconv.Itoa(i))
		li := build(h("li"), h("p", "id", textID, a.Text))
		if a.Config != w.view.Config { // "nothing to change" has nothing to try
			add(li, h("button", "type", "button", "class", "try", "aria-describedby", textID, "data-advice", strconv.Itoa(i), "Try it"))
		}
		add(w.advice, li)
	}
	measured(w.advice)
}

// tryAdvice is the advice list's click listener: "Try it" sets the form to
// the advice's Config.
func (w *simWidget) tryAdvice(ev js.Value) {
	btn := ev.Get("target").Call("closest", "button[data-advice]")
	if btn.IsNull() || w.view == nil {
		return
	}
	i, err := strconv.Atoi(btn.Call("getAttribute", "data-advice").String())
	if err != nil || i < 0 || i >= len(w.shownAdvice) {
		return
	}
	w.setValues(ConfigStrings(w.shownAdvice[i].Config))
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
	var out []el
	for _, e := range []el{w.bars, w.table, w.advice, w.clients} {
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

// clientsNote says who keeps a budget, a ratio or a throttle.
const clientsNote = "Budgets, ratios and throttling are kept by the sending side as a whole: one upstream service, such as the app's backend, " +
	"sending every person's requests, as in the SRE book and the AWS SDKs; not by each person's phone. " +
	"Every strategy still sends at most 1 + retries attempts per person."

// buildClients builds the client comparison's section, with a row per
// client strategy ready (the numbers come later), so that it keeps its
// height when they arrive.
func (w *simWidget) buildClients() el {
	w.clientsLead = h("p", "id", w.id("clients-lead"))
	w.clientsBars = h("ul", "class", "policy-bars client-bars", "id", w.id("clients-bars"))
	w.clientsTable = h("div", "id", w.id("clients-table-box"))
	w.clientsFluid = h("ul", "class", "fluid", "id", w.id("clients-fluid"))
	rows := make([]report.ClientRow, len(sim.Clients))
	for i, c := range sim.Clients {
		rows[i] = report.ClientRow{Client: c, Title: c.Title()}
		add(w.clientsBars, shareRow("data-client", c.String(), c.Title(), false, loadBar(0, 1), "…"))
		add(w.clientsFluid, h("li", "data-client", c.String(), "…"))
	}
	fill(w.clientsTable, renderClientTable(w.id("clients-table"), rows, -1, true, "during the sale"))
	w.clients = build(h("section", "class", "block clients", "id", w.id("clients"), "aria-labelledby", w.id("clients-title")),
		h("h3", "id", w.id("clients-title"), "Clients: how they retry"), w.clientsLead,
		h("p", "class", "note", "id", w.id("clients-note"), clientsNote),
		legend("first_try", "retry"), w.clientsBars, w.clientsTable,
		h("p", "class", "fluid-lead", "Once everyone times out, each strategy's fluid view: does a queue full of abandoned work drain?"), w.clientsFluid)
	return w.clients
}

// renderClients shows every client strategy for the chosen policy.
func (w *simWidget) renderClients(v report.ClientView) {
	c := v.Config
	lead := "Every client strategy with " + report.PolicyNoun(c.Policy) + " and " + report.UpToRetries(c.Retries) +
		", everything else as above. The bars are the attempts each person sent, out of the most a client may send: " + strconv.Itoa(1+c.Retries) + "."
	if c.Retries == 0 {
		lead += " With no retries the strategies differ only where a client refuses its own requests: adaptive throttling."
	}
	w.clientsLead.SetTextContent(lead)
	most := float64(1 + c.Retries)
	clear(w.clientsBars)
	clear(w.clientsFluid)
	for _, r := range v.Rows {
		key := r.Client.String()
		per, load := report.Nobody(c), "no attempts at all"
		if r.People > 0 {
			per = report.AttemptsPerPerson(r.AttemptsPerPerson)
		}
		if r.Attempts > 0 {
			load = "retries are " + report.Percent(r.ExtraLoad) + " of the load"
		}
		add(w.clientsBars, shareRow("data-client", key, r.Title, r.Client == c.Client, loadBar(r.AttemptsPerPerson, most),
			per+"; "+load+"; "+backWords(c, r)))
		li := h("li", "data-client", key, r.Fluid)
		if r.Client == c.Client {
			li.Class().Add("chosen")
		}
		add(w.clientsFluid, li)
	}
	fill(w.clientsTable, renderClientTable(w.id("clients-table"), v.Rows, c.Client, false, report.SaleArrivals(c)))
}

// backWords is a client row's return to normal under c, in words: as
// report.Recovered says it when the run is back or unmeasured, and
// shorter when it is not back.
func backWords(c sim.Config, r report.ClientRow) string {
	switch {
	case r.BackToNormalS != nil || r.Recovery == sim.Unmeasured:
		return report.Recovered(sim.Result{Config: c, BackToNormalS: r.BackToNormalS, Recovery: r.Recovery})
	case r.Recovery == sim.Throttled:
		return "clients still throttling"
	}
	return string(r.Recovery) // stuck, backlog, overloaded
}

// renderClientTable renders the client comparison; placeholder rows show
// only the names.
func renderClientTable(tableID string, rows []report.ClientRow, chosen sim.Client, placeholder bool, arrivals string) el {
	keys := make([]string, len(rows))
	for i, r := range rows {
		keys[i] = r.Client.String()
	}
	return renderTable(tableID, "compare clients-table", "Every client strategy, for the people who first arrived "+arrivals+" (retries in load over the whole run)",
		"Comparison of every client strategy", "client", report.ClientTable(rows), keys, chosen.String(), placeholder)
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
