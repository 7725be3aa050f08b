//go:build js && wasm

package main

import (
	"strconv"
	"strings"
	"syscall/js"

	"github.com/shedsim/shedsim/sim"
	"github.com/shedsim/shedsim/sim/report"
	"github.com/shedsim/shedsim/sim/sweep"
	"github.com/shedsim/shedsim/wasm/adapter"
	"github.com/shedsim/shedsim/wasm/markup"
)

// tipsWidget is "Where it tips": a sweep of one knob (a curve per policy)
// or a map of two (a grid for one policy), on the tips page or as a
// widget of kind "sweep" or "map". Its settings are read by adapter/tips.go; its
// runs go to the page's workers, a setting (every seed of one value) a
// job, and are drawn as they come back; what it draws is computed and
// worded by sim/report, and written here as markup.
type tipsWidget struct {
	widget
	page bool
	kind string // TipsSweep or TipsMap
	// vals are the settings: the kind's own and every Config key.
	vals     map[string]string
	fields   []*field
	openPage *openLink

	results, status, stale, body, sentence, figure, tableBox, simLink el

	runs runs
	key  string // what the runs in hand measure (tipsKey)
	// spec or mapSpec is the request measured, plan its settings, outs
	// their Outcomes as they come (Seeds 0 until then).
	spec           sweep.Spec
	mapSpec        sweep.MapSpec
	plan           sweep.Plan
	outs           []sweep.Outcome
	done, sent     int // settings measured, and sent to the workers
	startMS        float64
	cells          js.Value  // the map's cells, once drawn, to colour as they come
	xs, ys         []float64 // the map's values
	draw, debounce *task
	drawDue        bool
	// drawnAt is when the progress was last drawn (performance.now), and
	// drawCost what that took, in milliseconds (drawLater).
	drawnAt, drawCost float64
}

func mountTips(host el, prefix string, page bool, kind string, attrs map[string]string) *tipsWidget {
	w := &tipsWidget{widget: widget{host: host, prefix: prefix}, page: page, kind: kind}
	given := w.open(page, attrs)
	if page {
		w.kind = given["kind"]
		if w.kind == "" {
			w.kind = adapter.TipsSweep
		}
	}
	if w.kind != adapter.TipsSweep && w.kind != adapter.TipsMap {
		w.fixed = "kind " + strconv.Quote(w.kind) + " is not one of this page's: use sweep (the default) or map."
		w.kind = adapter.TipsSweep
	}
	w.vals = adapter.TipsValues(w.kind, given)
	for _, p := range adapter.SampleProblem(given["sample"]) {
		w.fixed = strings.TrimSpace(w.fixed + " " + p.Field + ": " + p.Msg + ".")
	}
	w.draw = w.task(w.drawLater)
	w.debounce = w.task(func() { w.update(false) })
	if page {
		w.on(js.Global(), "popstate", func(js.Value) {
			q := currentQuery()
			w.kind = q["kind"]
			if w.kind != adapter.TipsMap {
				w.kind = adapter.TipsSweep
			}
			w.vals = adapter.TipsValues(w.kind, q)
			w.committed = locationSearch()
			w.build(attrs)
		})
	}
	w.build(attrs)
	return w
}

// build draws the widget's form and results for w.kind.
func (w *tipsWidget) build(attrs map[string]string) {
	clear(w.host)
	w.errBox, w.fields, w.key = nil, nil, ""
	w.runs.cancel()
	var fm, rm markup.Markup
	specs := markup.WriteTipsForm(&fm, w.prefix, w.kind, w.vals, w.page)
	markup.WriteTipsResults(&rm, w.prefix, w.kind)
	form, results := fromMarkup(&fm), fromMarkup(&rm)
	boxes := form.Underlying().Call("querySelectorAll", ".field")
	for i, s := range specs {
		f := adoptField(s, wrap(boxes.Index(i)))
		if s.Key != "kind" {
			w.fields = append(w.fields, f)
		}
	}
	w.results, w.status, w.sentence, w.simLink = results, query(results, ".summary"), query(results, ".tips-sentence"), query(results, "a")
	w.stale, w.body, w.figure, w.tableBox = query(results, ".stale-note"), query(results, ".results-body"), query(results, ".chart-box"), query(results, ".tips-table-box")
	if w.page {
		add(w.host, build(h("div", "class", "sim-layout tips-layout"), form, results))
	} else {
		w.openPage = newOpenLink(&w.widget, attrs["base"], "tips.html", "Open in Where it tips")
		add(results, w.openPage.p)
		build(w.host, results, form) // a post's widget: its results first
		known := map[string]bool{}
		for _, k := range append(adapter.TipsKeysOf(w.kind), adapter.ConfigKeys()...) {
			known[k] = true
		}
		if bad := unknownAttrs(attrs, func(k string) bool { return known[k] }); len(bad) > 0 {
			w.fixed = strings.TrimSpace(w.fixed + " Not settings of a " + w.kind + " (use " + strings.Join(adapter.TipsKeysOf(w.kind), ", ") +
				" and the simulator's): " + strings.Join(bad, ", ") + ".")
		}
		if bad := hideControls(form, attrs["controls"]); len(bad) > 0 {
			w.fixed = strings.TrimSpace(w.fixed + " " + bad[0] + ".")
		}
	}
	w.onEl(form, "input", func(js.Value) { w.debounce.after(debounceMS) })
	w.onEl(form, "change", func(ev js.Value) {
		if t := ev.Get("target"); t.Get("name").String() == "kind" {
			was := w.read()
			if w.kind = t.Get("value").String(); w.kind == adapter.TipsMap && was["policy"] == adapter.AllPolicies {
				delete(was, "policy") // a map is of one policy
			}
			w.vals = adapter.TipsValues(w.kind, was)
			w.build(attrs)
			w.update(true)
			return
		}
		w.update(true)
	})
	w.onEl(form, "submit", func(ev js.Value) { ev.Call("preventDefault"); w.update(true) })
	w.onEl(results, "click", func(ev js.Value) { w.setFrom(ev.Get("target")) })
	w.update(false)
}

// read is the settings with the form's fields in.
func (w *tipsWidget) read() map[string]string {
	vals := adapter.TipsValues(w.kind, w.vals)
	for _, f := range w.fields {
		vals[f.spec.Key] = value(f.input)
	}
	return vals
}

// knobKeys are the keys whose values in the base Config the request's
// runs do not depend on (every step sets them): the sweep's knob, the
// map's two.
func (w *tipsWidget) knobKeys() []string {
	if w.kind == adapter.TipsMap {
		return []string{w.vals["x"], w.vals["y"]}
	}
	return []string{w.vals["knob"]}
}

// tipsKey is what the request of vals measures: every setting but the
// knobs' own values in the base Config, which a click changes.
func (w *tipsWidget) tipsKey() string {
	v := adapter.TipsValues(w.kind, w.vals)
	for _, k := range w.knobKeys() {
		v[k] = ""
	}
	return w.kind + "\x00" + valuesKey(append(adapter.TipsKeysOf(w.kind), adapter.ConfigKeys()...), v)
}

func (w *tipsWidget) update(commit bool) {
	w.debounce.stop()
	w.vals = w.read()
	q := adapter.TipsQuery(w.kind, w.vals)
	if w.page {
		w.syncURL(q, commit)
	}
	if w.openPage != nil {
		w.openPage.to(q)
	}
	w.compute()
}

// compute validates the settings and, if the request changed, cancels
// the runs of the last and sends the new one's; if only the knobs' own
// values changed, it redraws what it has with them.
func (w *tipsWidget) compute() {
	var errs []adapter.FieldMsg
	var base sim.Config
	if w.kind == adapter.TipsMap {
		w.mapSpec, errs = adapter.MapFromStrings(w.vals)
		base = w.mapSpec.Base
	} else {
		w.spec, errs = adapter.SweepFromStrings(w.vals)
		base = w.spec.Base
	}
	rest := markAll(w.fields, errs)
	if len(errs) > 0 {
		w.showError(strings.Join(rest, "; "))
		showStale(w.results, w.stale, w.body, true, w.key != "")
		w.status.SetTextContent("Not updated: " + firstProblem(w.fields, errs))
		w.dispatch("shedsim:invalid", adapter.Invalid(errs))
		return
	}
	w.showError("")
	showStale(w.results, w.stale, w.body, false, true)
	w.simLink.SetAttribute("href", "index.html"+adapter.EncodeQuery(adapter.ConfigKeys(), adapter.ConfigStrings(base), adapter.Defaults))
	w.simLink.SetTextContent("Open this configuration in the simulator: " + w.nowLabel(base))
	if key := w.tipsKey(); key != w.key {
		w.key = key
		w.start()
		return
	}
	w.drawProgress() // the same runs; the marks of the knobs' values move
	if w.done == len(w.outs) {
		w.drawTable()
	}
}

// nowLabel names the base Config's knob values: "sale_rps 150/s".
func (w *tipsWidget) nowLabel(base sim.Config) string {
	var parts []string
	for _, key := range w.knobKeys() {
		if k, err := sweep.ParseKnob(key); err == nil {
			parts = append(parts, k.Label(base))
		}
	}
	return strings.Join(parts, ", ")
}

// start sends every setting of the request to the workers.
func (w *tipsWidget) start() {
	w.runs.cancel()
	var err error
	if w.kind == adapter.TipsMap {
		w.plan, err = w.mapSpec.Plan()
	} else {
		w.plan, err = w.spec.Plan()
	}
	if err != nil {
		panic(err) // the request validated
	}
	w.outs, w.done = make([]sweep.Outcome, len(w.plan.Settings)), 0
	w.cells = js.Undefined()
	w.xs = sweep.Values(w.mapSpec.X.From, w.mapSpec.X.To, w.mapSpec.X.Steps)
	w.ys = sweep.Values(w.mapSpec.Y.From, w.mapSpec.Y.To, w.mapSpec.Y.Steps)
	w.startMS = now()
	w.runs.ensure()
	w.sent = 0
	for range 2 * w.runs.pool.Get("size").Int() {
		w.send()
	}
	fill(w.tableBox)
	w.drawProgress()
	w.drawnAt, w.drawCost = 0, 0 // the first answer is drawn at once
}

// send sends the next setting not sent to the workers. The settings go a
// few at a time (two a worker), each as its answer comes back, so that
// no task of the page's writes a request's thousands of Configs at once,
// and cancelling leaves little queued.
func (w *tipsWidget) send() {
	if w.sent >= len(w.plan.Settings) {
		return
	}
	i := w.sent
	w.sent++
	var answer js.Func
	id := 0
	answer = js.FuncOf(func(_ js.Value, args []js.Value) any {
		answer.Release()
		delete(w.runs.pending, id)
		w.safely(func() { w.answer(i, args[0]) })
		return nil
	})
	id = w.runs.pool.Call("measure", adapter.WorkerConfig(w.plan.Settings[i]), w.plan.Seeds, answer).Int()
	w.runs.pending[id] = answer
}

// answer takes setting i's Outcome from a worker.
func (w *tipsWidget) answer(i int, v js.Value) {
	out, err := adapter.DecodeOutcome(v.String())
	if err != nil {
		panic(err) // the page validated the request: a refusal is a bug
	}
	w.outs[i] = out
	w.done++
	w.send()
	if w.kind == adapter.TipsMap && w.cells.Truthy() {
		w.colourCell(i)
	}
	if w.done == len(w.outs) {
		w.draw.stop()
		w.drawDue = false
		w.drawProgress()
		w.finish()
		return
	}
	if !w.drawDue {
		w.drawDue = true
		if wait := w.drawnAt + max(progressGapMS, progressCostTimes*w.drawCost) - now(); wait > 0 {
			w.draw.after(int(wait) + 1)
		} else {
			w.draw.afterPaint()
		}
	}
}

// progressGapMS is the least time between two drawings of a request's
// progress, and progressCostTimes how many times its last drawing's cost
// the gap is at least. The page's main thread shares the machine's cores
// with the workers: drawing the sweep's chart after every answer (a few
// dozen a second) took 4.3 s of its CPU time in a sweep of 12.5 s on two
// cores, a third of what one worker had. A few drawings a second show the
// curves growing as well; the first answer is drawn as soon as it comes.
const (
	progressGapMS     = 250
	progressCostTimes = 10
)

// drawLater draws the progress so far (the draw task): the sweep's chart
// (a map's cells are coloured as they come) and the count measured.
func (w *tipsWidget) drawLater() {
	w.drawDue = false
	start := now()
	if w.kind != adapter.TipsMap || !w.cells.Truthy() {
		w.drawProgress()
	}
	w.status.SetTextContent("Measuring: " + report.Count(w.done) + " of " + report.Count(len(w.outs)) + " settings (" +
		report.Count(w.done*w.plan.Seeds) + " of " + report.Count(len(w.outs)*w.plan.Seeds) + " runs), in " + w.workers() + ".")
	w.drawnAt = now()
	w.drawCost = w.drawnAt - start
}

// workers is how many of the browser's threads (Web Workers, one per
// core) run the request: "2 browser threads". Not "workers", which in the
// model are the service's servers.
func (w *tipsWidget) workers() string {
	n := w.runs.pool.Get("size").Int()
	if n == 1 {
		return "1 browser thread"
	}
	return strconv.Itoa(n) + " browser threads"
}

// drawProgress draws the chart from the Outcomes so far.
func (w *tipsWidget) drawProgress() {
	if w.outs == nil {
		return
	}
	if w.kind == adapter.TipsMap {
		m := w.mapSpec.Assemble(w.outs)
		fill(w.figure, fromMarkup(markup.MapMarkup(w.id("tips-chart"), report.Map(m))))
		w.cells = w.figure.Underlying().Call("querySelectorAll", "rect.cell")
		w.sentence.SetTextContent(report.MapSentence(m))
		return
	}
	sw := w.spec.Assemble(w.outs)
	fill(w.figure, fromMarkup(markup.SweepMarkup(w.id("tips-chart"), report.Sweep(sw), sw.Spec.Knob)))
	w.sentence.SetTextContent(report.SweepSentence(sw))
}

// colourCell colours the map's cell i as its Outcome came, without
// drawing the map again: a map may have 10,000 cells.
func (w *tipsWidget) colourCell(i int) {
	nx := w.mapSpec.X.Steps
	o := w.outs[i]
	cell := w.cells.Index(i)
	cell.Call("setAttribute", "class", "cell "+report.BackClass(o))
	if t := cell.Get("firstElementChild"); t.Truthy() {
		t.Set("textContent", report.MapLabel(w.mapSpec, w.xs[i%nx], w.ys[i/nx], o))
	}
}

// finish draws the table and says what was measured, once every setting
// is, and tells the page (shedsim:sweep or shedsim:map).
func (w *tipsWidget) finish() {
	ms := now() - w.startMS
	runs := report.Count(len(w.outs)*w.plan.Seeds) + " runs"
	detail := w.drawTable()
	if w.kind == adapter.TipsMap {
		w.status.SetTextContent(report.Count(len(w.outs)) + " cells, " + runs + ", in " + w.workers() + ".")
		w.dispatch("shedsim:map", `{"map":`+detail+`,"ms":`+adapter.Fnum(ms)+`}`)
		return
	}
	w.status.SetTextContent(report.Count(len(w.outs)) + " settings, " + runs + ", in " + w.workers() + ".")
	w.dispatch("shedsim:sweep", `{"sweep":`+detail+`,"ms":`+adapter.Fnum(ms)+`}`)
}

// drawTable draws the table of what was measured, and returns it as JSON.
func (w *tipsWidget) drawTable() string {
	if w.kind == adapter.TipsMap {
		m := w.mapSpec.Assemble(w.outs)
		fill(w.tableBox, fromMarkup(markup.MapTableMarkup(w.id("tips-table"), m)))
		return adapter.MustJSON(m)
	}
	sw := w.spec.Assemble(w.outs)
	fill(w.tableBox, fromMarkup(markup.SweepTableMarkup(w.id("tips-table"), sw)))
	return adapter.MustJSON(sw)
}

// setFrom sets the knobs to the values of the point, cell or button
// target is in (data-set, or data-set-x and data-set-y), and reports
// whether it was one.
func (w *tipsWidget) setFrom(target js.Value) bool {
	t := target.Call("closest", "[data-set],[data-set-x]")
	if t.IsNull() {
		return false
	}
	keys := w.knobKeys()
	sets := []string{t.Call("getAttribute", "data-set").String()}
	if w.kind == adapter.TipsMap {
		sets = []string{t.Call("getAttribute", "data-set-x").String(), t.Call("getAttribute", "data-set-y").String()}
	}
	for i, k := range keys {
		w.vals[k] = sets[i]
		for _, f := range w.fields {
			if f.spec.Key == k {
				setValue(f.input, sets[i])
			}
		}
	}
	w.update(true)
	return true
}

func (w *tipsWidget) release() {
	w.runs.cancel()
	w.widget.release()
}
