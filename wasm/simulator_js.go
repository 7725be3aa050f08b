//go:build js && wasm

package main

import (
	"maps"
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
// (sim_clients_js.go), in the frame frame.go writes; the parts measured
// again are marked busy (sim_busy_js.go), and the results download as CSV
// or JSON (sim_downloads_js.go).

// debounceMS is how long the simulator waits after the last keystroke
// before it recomputes.
const debounceMS = 150

// simWidget is the simulator: the full page, the whole simulator as a
// widget (kind "full", results first), the compact widget, or (kind
// "chart") just the chart of one run.
type simWidget struct {
	widget
	page  bool
	kind  string
	base  string // the site's address, for links from a widget
	start sim.Config

	form     *simForm
	compare  *comparePart
	timeline *timelinePart
	advice   *advicePart  // the page and kind "full" only
	clients  *clientsPart // the page and kind "full" only
	timing   timingLine   // the page and kind "full" only

	// The results' frame: the heading, the status line and the notes
	// that say the results are stale or missing.
	results, resultsTitle, summary, announce, stale, empty, body el
	openFull                                                     *openLink // a widget's link to the full simulator

	view    *report.View
	lastKey string
	// arrowing is true while a key is down in a menu of the form;
	// uncommitted, that the inputs shown have replaced the history entry
	// but not yet added one (see update).
	arrowing, uncommitted bool
	isStale               bool // the results on show are not the form's

	// A recompute sends its runs to the page's workers (runs) and draws
	// each part as its runs come back (later): the chosen policy, every
	// policy side by side, the advice, the client strategies. The chosen
	// policy's chart, mechanism and tables are drawn a step at a time
	// (drawing, sim_drawing_js.go).
	debounce, dim *task
	// committing: the recompute debounce runs commits the input (soon).
	committing bool
	// advancing runs advance again, a task after it drew a part.
	advancing *task
	drawing   *drawing
	runs      runs
	later     laterWork
	timings   timings
	address   addressSync // the page only
}

// laterWork is a recompute's runs, which the page's workers answer in
// any order, and what of them is drawn so far.
type laterWork struct {
	config sim.Config
	// startMS is when the recompute began (now()), for its timings.
	startMS float64
	// compared is every policy's run, in the order of sim.Policies, without
	// its windows, for the comparison and report.Advise (see next);
	// chosenShown, that the chosen policy's is drawn; drawn, that the bars
	// and table show them.
	compared    []sim.Result
	chosenShown bool
	drawn       bool
	// chosen is the chosen policy's run, whole (its windows too), once
	// back; rows, every policy's row, once drawn.
	chosen *sim.Result
	rows   []report.Row
	// series is the chosen run with its series (the page only), which the
	// page asks for and takes off chosen, so that chosen is the run every
	// other part of the page and the downloads know.
	series *sim.Result
	// altRuns are the advice's runs back so far (report.AdviceRuns lists
	// them, a round at a time: adviseRound), altsLeft those of the round
	// still out; advised, that the advice is drawn.
	altRuns  []sim.Result
	altsLeft int
	advised  bool
	// sent, that the advice's first round and the seeds are sent, a task
	// after the comparison is drawn.
	sent bool
	// clients are the client comparison's runs, in the order of
	// sim.Clients (the page only), clientsLeft those still out;
	// clientsDrawn, that the comparison is drawn.
	clients      []sim.Result
	clientsLeft  int
	clientsDrawn bool
	// download is a download asked for before the advice was in: "csv",
	// "json" or "".
	download string
	// announce: the input was committed, and its headline is to be
	// announced when drawn.
	announce bool
	// seeds are the runs over more seeds than one (sim_seeds_js.go).
	seeds seedsWork
	// collected, that its garbage is to be collected once the browser is
	// idle (sim_gc_js.go).
	collected bool
}

// mountSimulator builds the simulator into host. For the page, the values
// come from the URL; for a widget, from its attributes (attrs).
func mountSimulator(host el, prefix string, page bool, kind string, attrs map[string]string) *simWidget {
	w := &simWidget{widget: widget{host: host, prefix: prefix}, page: page, kind: kind}
	w.debounce = w.task(func() { w.update(w.committing) })
	w.dim = w.task(w.dimBusy)
	w.advancing = w.task(w.advance)
	w.drawing = (&drawing{done: w.drawnWhole}).start(&w.widget)
	w.base = attrs["base"]
	given := w.open(page, attrs)

	w.start = sim.DefaultConfig()
	var vals map[string]string
	var startErrs []FieldMsg
	if page {
		// A setting the link gives that counts for nothing is named; the
		// form, which shows every setting, keeps it.
		vals, startErrs = PageStart(given)
	} else {
		if s, ok := sim.SampleByKey(attrs["sample"]); ok {
			w.start = s.Config
		}
		startErrs = sampleProblem(attrs["sample"])
		// Keep the attributes that are fine; name the others, settings
		// or not (the loader's own are not settings, and not errors).
		given := maps.Clone(given)
		// An attribute that counts for nothing is one of those.
		scope := sim.Scope{EveryPolicy: true, Series: true}
		notSettings := append(loaderAttrs[:len(loaderAttrs):len(loaderAttrs)], seedsKey)
		if kind == "chart" { // which draws one run
			notSettings = loaderAttrs
		}
		c, errs := ConfigFromGiven(w.start, given, 1, scope, notSettings...)
		if len(errs) > 0 {
			startErrs = append(startErrs, errs...)
			for _, e := range errs {
				delete(given, e.Field)
			}
			c, errs = ConfigFromGiven(w.start, given, 1, scope, notSettings...)
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
		vals = withSeeds(vals, given)
	}

	w.form = newSimForm(&w.widget, w.start)
	w.form.startVals[seedsKey] = vals[seedsKey]
	if page {
		w.form.buildPage(vals)
		w.onEl(w.form.reset, "click", func(js.Value) { w.applySample("sale", true) })
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
		// Arrowing through a menu changes it at every press: each
		// replaces the history entry, and leaving the menu, or Enter,
		// commits the choice (a click commits at once).
		w.onEl(form, "keydown", func(ev js.Value) {
			if !isSelect(ev.Get("target")) {
				return
			}
			if ev.Get("key").String() == "Enter" {
				w.soon(true)
				return
			}
			w.arrowing = true
		})
		w.onEl(form, "keyup", func(js.Value) { w.arrowing = false })
		w.onEl(form, "focusout", func(ev js.Value) {
			if w.uncommitted && isSelect(ev.Get("target")) {
				w.soon(true)
			}
		})
		w.onEl(form, "change", func(ev js.Value) {
			commit := !(w.arrowing && isSelect(ev.Get("target")))
			if w.form.isSample(wrap(ev.Get("target"))) {
				w.applySample(value(w.form.sample), commit)
				return
			}
			w.soon(commit)
		})
		w.onEl(form, "submit", func(ev js.Value) {
			ev.Call("preventDefault")
			w.soon(true)
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

// buildResults builds the (empty) results area as writeResults writes
// it, and finds its parts in it.
func (w *simWidget) buildResults() {
	f := resultsFrame{prefix: w.prefix, page: w.page, kind: w.kind, base: w.base}
	var m markup
	writeResults(&m, f, nil)
	w.results = fromMarkup(&m)
	find := func(name string) el { return query(w.results, "#"+w.id(name)) }
	w.resultsTitle, w.summary, w.announce = find("results-title"), find("summary"), find("announce")
	w.stale, w.empty, w.body = find("stale-note"), find("empty-note"), find("results-body")
	w.compare = newComparePart(find, w.id("compare"))
	w.timeline = newTimelinePart(find, w.id)
	if w.kind == "chart" {
		w.timeline.title = w.resultsTitle // the section's heading is the chart's title
	}
	if f.whole() {
		w.advice = newAdvicePart(find, w.id)
		w.clients = newClientsPart(find, w.id("clients-table"))
		w.timing = timingLine{find("timing")}
		w.onEl(find("download-csv"), "click", func(js.Value) { w.download("csv") })
		w.onEl(find("download-json"), "click", func(js.Value) { w.download("json") })
		w.onEl(w.advice.list, "click", w.tryAdvice)
	}
	if !w.page {
		w.openFull = adoptOpenLink(query(w.results, ".open-full-p"), w.base+"index.html")
	}
}

// schedule recomputes debounceMS after the last keystroke.
func (w *simWidget) schedule() { w.debounce.after(debounceMS) }

// soon recomputes in a task after this one, with commit a committed
// input: the browser's own work for the event (a menu's new option laid
// out, a key) and the recompute's, in one task, were 60 to 90 ms of CPU at
// 4x (Chromium's trace, issue 28).
func (w *simWidget) soon(commit bool) {
	w.committing = w.committing || commit
	w.debounce.after(0)
}

// update recomputes if the form changed, and keeps the URL in step:
// replaceState while typing, pushState when a change is committed (a
// select, a sample, leaving a field, Enter, Run, Try it).
func (w *simWidget) update(commit bool) {
	w.debounce.stop()
	w.committing = false
	vals := w.computeIfChanged()
	w.uncommitted = !commit
	if commit {
		// The results of a committed input are announced once drawn;
		// those of a half-typed number, or of a menu being arrowed
		// through, are shown but not announced.
		w.later.announce = true
		w.announceResult()
	}
	q := encodeQuery(pageKeys, vals, pageDefaults)
	if w.page {
		w.syncAddress(q, commit)
	} else {
		w.openFull.to(q)
	}
}

// restore reads the URL after Back or Forward.
func (w *simWidget) restore() {
	w.dropAddress()
	q := currentQuery()
	w.form.setValues(pageValues(q))
	w.committed = locationSearch()
	w.computeIfChanged() // not, say, Back from a #fragment
}

// computeIfChanged reads the form and recomputes if it changed; it returns
// the values it read.
func (w *simWidget) computeIfChanged() map[string]string {
	vals := w.form.values()
	if k := valuesKey(pageKeys, vals); k != w.lastKey {
		w.lastKey = k
		w.compute(vals)
	}
	return vals
}

// applySample sets the form to a sample's Config and, with commit,
// commits it.
func (w *simWidget) applySample(key string, commit bool) {
	s, ok := sim.SampleByKey(key)
	if !ok {
		return
	}
	w.form.setValues(ConfigStrings(s.Config))
	w.soon(commit)
}

// announceResult puts the chosen policy's headline in the live region
// once a committed input's results are drawn.
// A committed input that is not valid is announced as the summary says
// it: what is wrong.
func (w *simWidget) announceResult() {
	switch {
	case !w.later.announce:
	case w.isStale:
		w.later.announce = false
		w.announce.SetTextContent(w.summary.TextContent())
	case w.later.seeds.more() && !w.later.seeds.drawn: // announced once the seeds are in
	case w.later.seeds.more():
		w.later.announce = false
		w.announce.SetTextContent(w.later.seeds.headline)
	case w.later.chosenShown && w.view != nil:
		w.later.announce = false
		w.announce.SetTextContent(report.Headline(w.view.Chosen))
	}
}

// isSelect reports whether v is a <select>.
func isSelect(v js.Value) bool {
	return v.Type() == js.TypeObject && v.Get("tagName").Type() == js.TypeString && v.Get("tagName").String() == "SELECT"
}

// compute validates vals and sends their runs to the page's workers, or
// marks what is wrong. The chosen policy's run goes first; each answer is
// drawn as it comes (advance), so what the reader changed shows as soon
// as its own run is back. A new valid input cancels the runs of the last.
func (w *simWidget) compute(vals map[string]string) {
	c, errs := ConfigFromStrings(w.start, vals, viewRuns, seedsKey)
	if len(errs) == 0 {
		if err := c.Validate(); err != nil {
			errs = simErrors(err, nil)
		}
	}
	n, e := SeedsFor(c, vals[seedsKey], len(errs) == 0)
	if e != nil {
		errs = append(errs, *e)
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
	w.runs.cancel()
	w.drawing.reset()
	first := w.view == nil
	w.later = laterWork{config: c, startMS: now(), compared: samePolicies(w.later, c), seeds: seedsWork{n: n}}
	w.seedsBegin()
	w.timings = timings{}
	w.showTimings()
	l := &w.later
	w.results.SetAttribute("data-rows", "pending")
	w.results.SetAttribute("data-advice", "pending")
	w.results.SetAttribute("aria-busy", "true")
	w.markBusy()
	if first {
		// Nothing on show is the last input's: not dimmed (the page's
		// loader puts the prerendered default run back, if this is it).
		w.dim.stop()
		w.compare.placeholders(c)
	}
	// The chosen policy first, whole, then every policy's totals, then
	// the clients': the workers take them in this order.
	chosen := c
	if w.page {
		chosen.SeriesStepS = sim.SeriesStep(c.DurationS)
	}
	w.runs.start(&w.widget, chosen, true, func(r sim.Result) {
		if r.Series != nil {
			withSeries := r
			l.series = &withSeries
		}
		r.Series, r.Config.SeriesStepS = nil, 0 // the series changes nothing else (sim's TestSeriesInvariants)
		l.chosen = &r
		w.advancing.after(0)
	})
	for _, p := range sim.Policies {
		if l.compared[p].Config.Workers != 0 {
			continue // only the policy changed: this run stands
		}
		alt := c
		alt.Policy = p
		w.runs.start(&w.widget, alt, false, func(r sim.Result) {
			l.compared[p] = r
			w.advancing.after(0)
		})
	}
	if w.clients != nil {
		l.clients = make([]sim.Result, len(sim.Clients))
		for i, cl := range sim.Clients {
			if cl == c.Client {
				continue // the chosen policy's run itself (ClientRun)
			}
			alt := c
			alt.Client = cl
			l.clientsLeft++
			w.runs.start(&w.widget, alt, false, func(r sim.Result) {
				l.clients[i] = r
				l.clientsLeft--
				w.advancing.after(0)
			})
		}
	}
	// What the runs of the last input allow (the comparison, when only the
	// policy changed) is drawn in a task after this one, the reader's.
	w.advancing.after(0)
}

// advance draws the next part the runs answered so far allow: the chosen
// policy as soon as its run is back, every policy side by side once
// theirs are, then the advice's first round sent, then (once their runs
// are back too) the advice and the client comparison. Each part is a task
// of its own on the main thread, timed as a step: an answer is decoded in
// its own task and asks for advance in a task after it (w.advancing; the
// big link's chosen run, decoded and drawn in one, took 60 ms of CPU at
// 4x), and one that drew a part runs advance again in a task after it, so
// that an answer that completes several parts (a change of policy alone,
// whose other runs stand) does not draw them all in one long task.
func (w *simWidget) advance() {
	if w.advanceStep() {
		w.advancing.after(0)
	}
	w.collectIfDone()
}

// advanceStep draws the first part that is due, if any, and reports
// whether it drew one.
func (w *simWidget) advanceStep() bool {
	l := &w.later
	c := l.config
	start := now()
	defer func() {
		w.timings.step = max(w.timings.step, now()-start)
		w.showTimings()
	}()
	if !l.chosenShown && l.chosen != nil {
		v := report.ChosenView(c, *l.chosen)
		v.Rows = l.rows
		w.summary.SetTextContent(report.Headline(v.Chosen)) // the rest a step at a time (drawLines)
		w.view = &v
		w.setStale(false, "")
		l.chosenShown = true
		w.timings.draw += now() - start
		w.timings.first = now() - l.startMS
		w.announceResult()
		w.drawing.add(append([]func(){w.drawLines, w.drawChart, w.drawChartTable}, w.mechanismSteps()...)...)
		return true
	}
	if !l.drawn {
		if _, more := l.next(); more {
			return false
		}
		l.rows = report.Rows(l.compared)
		if !l.seeds.more() { // else the seeds draw them (progressSeeds)
			w.compare.draw(c, l.rows, false)
			for _, e := range w.compare.measuredLater() {
				measured(e)
			}
		}
		l.drawn = true
		w.results.RemoveAttribute("data-rows")
		w.timings.draw += now() - start
		w.timings.build = now() - l.startMS
		if l.chosenShown {
			w.view.Rows = l.rows
		}
		return true
	}
	if !l.sent {
		// The advice's first round, where it is shown (the page and kind
		// "full": another widget measures none), then the seeds, a
		// policy's a step, which wait for every round of it
		// (runs.startLater).
		l.sent = true
		if w.advice != nil {
			w.adviseRound()
		}
		return true
	}
	if w.startSeeds() {
		return true
	}
	if !l.chosenShown {
		return false
	}
	if !l.advised {
		if l.altsLeft > 0 {
			return false
		}
		if w.advice != nil {
			adv, err := report.AdviseFrom(c, l.compared, l.altRuns)
			if err != nil {
				panic(err)
			}
			w.view.Advice = adv
			w.advice.render(adv, c)
		}
		w.results.RemoveAttribute("data-advice")
		l.advised = true
		w.timings.advice = now() - start
		console("shedsim: " + f1(w.timings.first) + " ms until your policy was drawn, " + f1(w.timings.build) + " ms until every policy was, " + f1(w.timings.draw) + " ms drawing, " + f1(w.timings.advice) +
			" ms the advice; " + report.Count(int(c.ExpectedAttempts())) + " attempts expected per run")
		w.dispatch("shedsim:result", `{"view":`+mustJSON(*w.view)+`,"first_ms":`+fnum(w.timings.first)+`,"build_ms":`+fnum(w.timings.build)+`,"advice_ms":`+fnum(w.timings.advice)+`}`)
		if l.download != "" {
			w.download(l.download)
		}
		return true
	}
	if w.clients == nil || l.clientsDrawn || l.clientsLeft > 0 {
		return false
	}
	l.clients[c.Client] = *l.chosen
	cv := report.ClientView{Config: c, Rows: report.ClientRows(l.clients)}
	w.clients.render(cv)
	l.clientsDrawn = true
	measured(w.clients.section)
	w.timings.clients = now() - l.startMS
	w.timings.draw += now() - start
	w.dispatch("shedsim:clients", `{"view":`+mustJSON(cv)+`,"clients_ms":`+fnum(w.timings.clients)+`}`)
	return true
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

// showTimings writes the last recompute's timings into #timing.
func (w *simWidget) showTimings() {
	w.timing.show(w.timings, w.later.drawn, w.later.advised, w.later.clientsDrawn)
}

// setStale marks the results as stale (or not), with a status message.
func (w *simWidget) setStale(stale bool, msg string) {
	w.isStale = stale
	has := w.view != nil
	showStale(w.results, w.stale, w.body, stale, has)
	setHidden(w.empty, !(stale && !has))
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
	if !w.page {
		w.form.startVals = ConfigStrings(a.Config) // the settings a widget has no control for take the advice's too
	}
	w.form.setValues(ConfigStrings(a.Config))
	w.update(true)
	w.resultsTitle.Focus()
}

// release cancels the widget's runs, then removes its listeners and
// empties its element.
func (w *simWidget) release() {
	w.runs.cancel()
	w.widget.release()
}
