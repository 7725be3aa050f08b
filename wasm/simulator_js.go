//go:build js && wasm

package main

import (
	"maps"
	"strings"
	"syscall/js"

	"github.com/shedsim/shedsim/sim"
	"github.com/shedsim/shedsim/sim/report"
	"github.com/shedsim/shedsim/wasm/adapter"
	"github.com/shedsim/shedsim/wasm/markup"
)

// This file is the simulator widget: it reads the form, recomputes, and
// hands each part its share of the results. The parts draw themselves:
// the form (sim_form_js.go), every policy side by side
// (sim_compare_js.go), the chosen policy over time (sim_timeline_js.go),
// what to change (sim_advice_js.go) and the client strategies
// (sim_clients_js.go), in the frame markup/frame.go writes; the parts measured
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
	chain    el           // the chosen run's chain (sim_chain_js.go), hidden without one
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
	var startErrs []adapter.FieldMsg
	if page {
		// A setting the link gives that counts for nothing is named; the
		// form, which shows every setting, keeps it.
		vals, startErrs = adapter.PageStart(given)
	} else {
		if s, ok := sim.SampleByKey(attrs["sample"]); ok {
			w.start = s.Config
		}
		startErrs = adapter.SampleProblem(attrs["sample"])
		// Keep the attributes that are fine; name the others, settings
		// or not (the loader's own are not settings, and not errors).
		given := maps.Clone(given)
		// An attribute that counts for nothing is one of those.
		scope := sim.Scope{EveryPolicy: true, Series: true}
		notSettings := append(loaderAttrs[:len(loaderAttrs):len(loaderAttrs)], adapter.SeedsKey)
		if kind == "chart" { // which draws one run
			notSettings = loaderAttrs
		}
		c, errs := adapter.ConfigFromGiven(w.start, given, 1, scope, notSettings...)
		if len(errs) > 0 {
			startErrs = append(startErrs, errs...)
			for _, e := range errs {
				delete(given, e.Field)
			}
			c, errs = adapter.ConfigFromGiven(w.start, given, 1, scope, notSettings...)
		}
		if len(errs) == 0 {
			w.start = c
		} else {
			given = nil
		}
		vals = adapter.ConfigStrings(w.start)
		for k, v := range given {
			if _, ok := adapter.FieldByKey(k); ok {
				vals[k] = v
			}
		}
		vals = adapter.WithSeeds(vals, given)
	}

	w.form = newSimForm(&w.widget, w.start)
	w.form.startVals[adapter.SeedsKey] = vals[adapter.SeedsKey]
	if page {
		w.form.buildPage(vals)
		w.onEl(w.form.reset, "click", func(js.Value) { w.applySample("sale", true) })
	} else {
		specs, problem := widgetControls(kind, attrs["controls"])
		if problem != "" {
			startErrs = append(startErrs, adapter.FieldMsg{Field: "controls", Msg: problem})
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

// buildResults builds the (empty) results area as WriteResults writes
// it, and finds its parts in it.
func (w *simWidget) buildResults() {
	f := markup.ResultsFrame{Prefix: w.prefix, Page: w.page, Kind: w.kind, Base: w.base}
	var m markup.Markup
	markup.WriteResults(&m, f, nil)
	w.results = fromMarkup(&m)
	find := func(name string) el { return query(w.results, "#"+w.id(name)) }
	w.resultsTitle, w.summary, w.announce = find("results-title"), find("summary"), find("announce")
	w.stale, w.empty, w.body = find("stale-note"), find("empty-note"), find("results-body")
	w.compare = newComparePart(find, w.id("compare"))
	w.timeline = newTimelinePart(find, w.id)
	w.chain = find("chain")
	if w.kind == "chart" {
		w.timeline.title = w.resultsTitle // the section's heading is the chart's title
	}
	if f.Whole() {
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
// 4x (Chromium's trace).
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
	q := adapter.EncodeQuery(adapter.PageKeys, vals, adapter.PageDefaults)
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
	w.form.setValues(adapter.PageValues(q))
	w.committed = locationSearch()
	w.computeIfChanged() // not, say, Back from a #fragment
}

// computeIfChanged reads the form and recomputes if it changed; it returns
// the values it read.
func (w *simWidget) computeIfChanged() map[string]string {
	vals := w.form.values()
	if k := valuesKey(adapter.PageKeys, vals); k != w.lastKey {
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
	w.form.setValues(adapter.ConfigStrings(s.Config))
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
		w.form.startVals = adapter.ConfigStrings(a.Config) // the settings a widget has no control for take the advice's too
	}
	w.form.setValues(adapter.ConfigStrings(a.Config))
	w.update(true)
	w.resultsTitle.Focus()
}

// release cancels the widget's runs, then removes its listeners and
// empties its element.
func (w *simWidget) release() {
	w.runs.cancel()
	w.widget.release()
}
