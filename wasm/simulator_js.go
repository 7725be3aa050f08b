//go:build js && wasm

package main

import (
	"encoding/json"
	"fmt"
	"strings"
	"syscall/js"
	"time"

	"honnef.co/go/js/dom/v2"

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
	page   bool
	kind   string
	base   string // the site's address, for links from a widget
	start  sim.Config
	fields []*field
	byKey  map[string]*field
	sample dom.Element

	results, summary, stale, body           dom.Element
	bars, table, chartTitle, chart, lines   dom.Element
	advice, fluid, timing, downloads, empty dom.Element

	view      *report.View
	lastKey   string
	timer     int
	committed string // the query of the history entry last committed
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

// humanize turns a key such as "backoff_base_ms" into a label.
func humanize(key string) (label, unit string) {
	words := strings.Split(key, "_")
	switch last := words[len(words)-1]; last {
	case "ms", "s":
		unit, words = last, words[:len(words)-1]
	}
	return capital(strings.Join(words, " ")), unit
}

// mountSimulator builds the simulator into host. For the page, the values
// come from the URL; for a widget, from its attributes (attrs).
func mountSimulator(host dom.Element, prefix string, page bool, kind string, attrs map[string]string) *simWidget {
	w := &simWidget{widget: widget{host: host, prefix: prefix}, page: page, kind: kind, byKey: map[string]*field{}, timer: -1}
	w.base = attrs["base"]
	clear(host)
	host.Class().Add("shedsim")

	w.start = sim.DefaultConfig()
	vals := ConfigStrings(w.start)
	var startErrs []FieldMsg
	if page {
		q := currentQuery()
		if s, ok := sim.SampleByKey(q["sample"]); ok {
			vals = ConfigStrings(s.Config)
		}
		for _, k := range ConfigKeys() {
			if v, ok := q[k]; ok {
				vals[k] = v
			}
		}
		w.committed = win.Location().Search()
	} else {
		if s, ok := sim.SampleByKey(attrs["sample"]); ok {
			w.start = s.Config
		} else if attrs["sample"] != "" {
			startErrs = append(startErrs, FieldMsg{"sample", fmt.Sprintf("%q is not a sample: use one of %s", attrs["sample"], sampleKeys())})
		}
		for _, k := range unknownAttrs(attrs, func(k string) bool { _, ok := fieldByKey(k); return ok }) {
			startErrs = append(startErrs, FieldMsg{k, "is not a setting of the simulator: use one of " + strings.Join(ConfigKeys(), ", ")})
		}
		given := map[string]string{}
		for k, v := range attrs {
			if _, ok := fieldByKey(k); ok {
				given[k] = v
			}
		}
		c, errs := ConfigFromStrings(w.start, given, 1)
		if len(errs) > 0 {
			// Keep the attributes that are fine; name the others.
			startErrs = append(startErrs, errs...)
			for _, e := range errs {
				delete(given, e.Field)
			}
			c, errs = ConfigFromStrings(w.start, given, 1)
		}
		if len(errs) == 0 {
			w.start = c
		} else {
			given = map[string]string{}
		}
		vals = ConfigStrings(w.start)
		for k, v := range given {
			vals[k] = v
		}
	}

	var form dom.Element
	switch {
	case page:
		form = w.buildPageForm(vals)
	case kind == "simulator":
		form = h("form", cls("widget-controls"), at("novalidate", ""))
		row := h("div", cls("field-row"))
		for _, s := range compactFields {
			row.AppendChild(w.addField(s, vals[s.Key]).box)
		}
		form.AppendChild(row)
	}
	w.buildResults()
	if page {
		host.AppendChild(h("div", cls("sim-layout"), form, w.results))
	} else {
		host.Class().Add("shedsim-widget")
		if form != nil {
			host.AppendChild(form)
		}
		host.AppendChild(w.results)
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

func sampleKeys() string {
	var ks []string
	for _, s := range sim.Samples() {
		ks = append(ks, s.Key)
	}
	return strings.Join(ks, ", ")
}

// addField renders one field of the form and records it.
func (w *simWidget) addField(s fieldSpec, val string) *field {
	var f *field
	switch s.Key {
	case "policy":
		f = w.selectField(s, policyOptions(), val)
	case "client":
		f = w.selectField(s, clientOptions(), val)
	default:
		f = w.textField(s, val, s.Key == "queue")
	}
	w.fields = append(w.fields, f)
	w.byKey[s.Key] = f
	return f
}

// buildPageForm builds the simulator page's whole form.
func (w *simWidget) buildPageForm(vals map[string]string) dom.Element {
	form := h("form", at("id", w.id("sim-form")), cls("controls"), at("novalidate", ""), at("aria-labelledby", w.id("form-title")),
		h("h2", at("id", w.id("form-title")), "Your numbers"))

	// The samples.
	sel := h("select", at("id", w.id("in-sample")), at("name", "sample"))
	sel.AppendChild(h("option", at("value", "custom"), "Your own numbers"))
	for _, s := range sim.Samples() {
		sel.AppendChild(h("option", at("value", s.Key), s.Name))
	}
	w.sample = sel
	form.AppendChild(h("div", cls("field sample-field"), h("label", at("for", w.id("in-sample")), "Start from a sample"), sel,
		h("p", cls("field-hint"), at("id", w.id("sample-about")))))
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
		fs := h("fieldset", cls("group"), h("legend", g.legend))
		if g.advanced {
			// The <summary> says it already; the legend stays for screen readers.
			fs = h("fieldset", cls("group"), h("legend", cls("visually-hidden"), g.legend))
		}
		for _, s := range specs {
			if _, ok := fieldByKey(s.Key); !ok {
				continue // a key the engine no longer has
			}
			fs.AppendChild(w.addField(s, vals[s.Key]).box)
		}
		if g.advanced {
			form.AppendChild(h("details", cls("advanced"), at("id", w.id("advanced")), h("summary", "Advanced: the queue timeout, jitter and the rest"), fs))
		} else {
			form.AppendChild(fs)
		}
	}
	reset := h("button", at("type", "button"), at("id", w.id("reset")), cls("secondary"), "Back to the shop's numbers")
	form.AppendChild(h("div", cls("form-actions"), h("button", at("type", "submit"), at("id", w.id("run")), "Run"), reset))
	w.onEl(reset, "click", func(js.Value) { w.applySample("sale") })
	return form
}

// buildResults builds the (empty) results area.
func (w *simWidget) buildResults() {
	w.summary = h("p", cls("summary"), at("id", w.id("summary")), at("role", "status"), at("aria-live", "polite"), "Computing…")
	w.stale = h("p", cls("stale-note"), at("id", w.id("stale-note")), at("hidden", ""), "These results are for the last valid input.")
	w.empty = h("p", cls("empty-note"), at("id", w.id("empty-note")), at("hidden", ""), "No results yet: fix the marked fields.")
	w.bars = h("div", at("id", w.id("bars")), cls("bars"))
	w.chartTitle = h("h3", at("id", w.id("chart-title")))
	w.chart = h("div", at("id", w.id("chart-box")), cls("chart-box"))
	w.lines = h("div", cls("lines"), at("id", w.id("lines")))
	w.body = h("div", cls("results-body"), at("id", w.id("results-body")))
	w.results = h("section", cls("results"), at("id", w.id("results")), at("aria-labelledby", w.id("results-title")))
	title := "Results"
	if !w.page {
		title = "Every policy in the sale"
	}
	headTag := "h2"
	if !w.page {
		headTag = "h3"
	}
	build(w.results, h(headTag, at("id", w.id("results-title")), at("tabindex", "-1"), title), w.summary, w.stale, w.empty, w.body)

	switch {
	case w.page:
		w.table = h("div", at("id", w.id("table-box")))
		w.advice = h("ol", cls("advice"), at("id", w.id("advice")))
		w.fluid = h("ul", cls("fluid"), at("id", w.id("fluid")))
		w.timing = h("span", cls("timing"), at("id", w.id("timing")))
		csv := h("button", at("type", "button"), at("id", w.id("download-csv")), cls("secondary"), "Download CSV")
		jsn := h("button", at("type", "button"), at("id", w.id("download-json")), cls("secondary"), "Download JSON")
		w.onEl(csv, "click", func(js.Value) { w.download("csv") })
		w.onEl(jsn, "click", func(js.Value) { w.download("json") })
		w.downloads = h("p", cls("downloads"), csv, " ", jsn, " ", w.timing)
		build(w.body,
			h("section", cls("block"), at("aria-labelledby", w.id("bars-title")),
				h("h3", at("id", w.id("bars-title")), "Every policy, for the people who arrived during the sale"),
				legend("answered", "refused", "timed_out"), w.bars, w.table),
			h("section", cls("block"), at("aria-labelledby", w.id("chart-title")), w.chartTitle, w.chart, w.lines),
			h("section", cls("block"), at("aria-labelledby", w.id("advice-title")),
				h("h3", at("id", w.id("advice-title")), "What to change"), w.advice),
			h("details", cls("fluid-details"), h("summary", "The fluid view: does a full unbounded queue drain after the sale?"), w.fluid),
			w.downloads)
	case w.kind == "chart":
		// The section's heading is the chart's title.
		w.chartTitle = w.results.FirstChild().(dom.Element)
		build(w.body, w.chart, w.lines)
	default:
		build(w.body, legend("answered", "refused", "timed_out"), w.bars, w.chartTitle, w.chart, w.lines)
	}
	if !w.page {
		link := h("a", cls("open-full"), at("id", w.id("open-full")), at("href", w.base+"index.html"), "Open in the full simulator")
		w.body.AppendChild(h("p", cls("open-full-p"), link))
	}
}

// values reads the form: every Config key, from the start Config and the
// fields.
func (w *simWidget) values() map[string]string {
	vals := ConfigStrings(w.start)
	for _, f := range w.fields {
		vals[f.spec.Key] = value(f.input)
	}
	return vals
}

func valuesKey(vals map[string]string) string {
	var b strings.Builder
	for _, k := range ConfigKeys() {
		b.WriteString(k + "=" + vals[k] + "\x00")
	}
	return b.String()
}

// setValues writes vals into the fields (all of them: a value missing
// from vals is the default's).
func (w *simWidget) setValues(vals map[string]string) {
	d := ConfigStrings(w.start)
	for _, f := range w.fields {
		v, ok := vals[f.spec.Key]
		if !ok {
			v = d[f.spec.Key]
		}
		setValue(f.input, v)
	}
}

// schedule recomputes debounceMS after the last keystroke.
func (w *simWidget) schedule() {
	if w.timer >= 0 {
		win.ClearTimeout(w.timer)
	}
	w.timer = win.SetTimeout(func() {
		w.timer = -1
		w.safely(func() { w.update(false) })
	}, debounceMS)
}

// update recomputes if the form changed, and keeps the URL in step:
// replaceState while typing, pushState when a change is committed (a
// select, a sample, leaving a field, Enter, Run, Try it).
func (w *simWidget) update(commit bool) {
	if w.timer >= 0 {
		win.ClearTimeout(w.timer)
		w.timer = -1
	}
	vals := w.values()
	if k := valuesKey(vals); k != w.lastKey {
		w.lastKey = k
		w.compute(vals)
	}
	if w.page {
		w.syncURL(vals, commit)
	} else {
		q := encodeQuery(ConfigKeys(), vals, ConfigStrings(sim.DefaultConfig()))
		w.host.QuerySelector(".open-full").SetAttribute("href", w.base+"index.html"+q)
	}
}

func (w *simWidget) syncURL(vals map[string]string, commit bool) {
	q := encodeQuery(ConfigKeys(), vals, ConfigStrings(sim.DefaultConfig()))
	if !commit {
		if q != win.Location().Search() {
			history("replaceState", q)
		}
		return
	}
	if q == w.committed {
		if q != win.Location().Search() {
			history("replaceState", q)
		}
		return
	}
	// Put back the entry typing changed, then add the new one, so that
	// Back returns to the last committed state.
	history("replaceState", w.committed)
	history("pushState", q)
	w.committed = q
}

// restore reads the URL after Back or Forward.
func (w *simWidget) restore() {
	q := currentQuery()
	vals := ConfigStrings(sim.DefaultConfig())
	if s, ok := sim.SampleByKey(q["sample"]); ok {
		vals = ConfigStrings(s.Config)
	}
	for k, v := range q {
		if _, ok := fieldByKey(k); ok {
			vals[k] = v
		}
	}
	w.setValues(vals)
	w.committed = win.Location().Search()
	vals = w.values()
	w.lastKey = valuesKey(vals)
	w.compute(vals)
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
func (w *simWidget) compute(vals map[string]string) {
	t0 := time.Now()
	c, errs := ConfigFromStrings(w.start, vals, viewRuns)
	var v report.View
	var buildMS float64
	if len(errs) == 0 {
		t1 := time.Now()
		var err error
		v, err = report.Build(c)
		buildMS = float64(time.Since(t1).Microseconds()) / 1000
		if err != nil {
			errs = simErrors(err, nil)
		}
	}
	rest := markAll(w.fields, errs)
	if len(errs) > 0 {
		problem := firstProblem(w.fields, errs)
		if len(rest) > 0 && !w.page {
			w.showError("This widget's settings have a problem: " + strings.Join(rest, "; "))
		}
		w.setStale(true, "Not updated: "+problem)
		w.dispatch("shedsim:invalid", mustJSON(errorsJSON{errs}))
		return
	}
	if !w.page {
		w.showError("")
	}
	t2 := time.Now()
	w.render(v)
	w.view = &v
	w.setStale(false, "")
	drawMS := float64(time.Since(t2).Microseconds()) / 1000
	totalMS := float64(time.Since(t0).Microseconds()) / 1000
	if w.timing != nil {
		w.timing.SetTextContent(fmt.Sprintf("Computed in %s ms (the simulation %s ms, drawing %s ms).", f1(totalMS), f1(buildMS), f1(drawMS)))
		w.timing.SetAttribute("data-build-ms", fnum(buildMS))
		w.timing.SetAttribute("data-draw-ms", fnum(drawMS))
	}
	console(fmt.Sprintf("shedsim: report.Build %.1f ms, drawing %.1f ms, %.0f attempts expected per policy", buildMS, drawMS, c.ExpectedAttempts()))
	w.dispatch("shedsim:result", `{"view":`+mustJSON(v)+`,"build_ms":`+fnum(buildMS)+`}`)
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

// render shows a view.
func (w *simWidget) render(v report.View) {
	c := v.Config
	r := v.Chosen
	w.summary.SetTextContent(fmt.Sprintf("%s: %s of the sale's people answered, %s refused, %s timed out; %s.",
		c.Policy.Title(), report.Percent(r.Sale.AnsweredShare), report.Percent(r.Sale.RefusedShare), report.Percent(r.Sale.TimedOutShare), report.Recovered(r)))
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
		w.host.QuerySelector("#" + w.id("sample-about")).SetTextContent(about)
	}
	if w.kind != "chart" || w.page {
		fill(w.bars, renderBars(v.Rows, c.Policy))
	}
	if w.table != nil {
		fill(w.table, renderTable(w.id("compare"), v.Rows, c.Policy))
	}
	w.chartTitle.SetTextContent(c.Policy.Title() + " over time")
	fill(w.chart, renderChart(w.id("chart"), v.Chart, r,
		fmt.Sprintf("Answered, refused and timed out per 10 s of arrivals under the %s; the shaded band is the sale.", strings.ToLower(c.Policy.Title()[:1])+c.Policy.Title()[1:])))
	fill(w.lines, renderLine(w.id("outlook"), v.Outlook), renderLine(w.id("this-run"), v.ThisRun))
	if w.advice != nil {
		clear(w.advice)
		for i, a := range v.Advice {
			textID := w.id(fmt.Sprintf("advice-%d", i))
			btn := h("button", at("type", "button"), cls("try"), at("aria-describedby", textID), "Try it")
			cfg := a.Config
			w.onEl(btn, "click", func(js.Value) {
				w.setValues(ConfigStrings(cfg))
				w.update(true)
				w.host.QuerySelector("#" + w.id("results-title")).(dom.HTMLElement).Focus()
			})
			w.advice.AppendChild(h("li", h("p", at("id", textID), a.Text), btn))
		}
	}
	if w.fluid != nil {
		clear(w.fluid)
		for _, l := range v.Fluid {
			w.fluid.AppendChild(h("li", l))
		}
	}
}

// download saves the current results as CSV or JSON.
func (w *simWidget) download(format string) {
	if w.view == nil {
		return
	}
	name := "shedsim-" + w.view.Config.Policy.String()
	var text, typ string
	if format == "csv" {
		text, typ, name = ViewCSV(*w.view), "text/csv", name+".csv"
	} else {
		b, err := json.MarshalIndent(w.view, "", "  ")
		if err != nil {
			panic(err)
		}
		text, typ, name = string(b)+"\n", "application/json", name+".json"
	}
	saveFile(name, typ, text)
}

// saveFile offers text as a download through a Blob and a[download]
// (dom/v2 has no Blob, so this is syscall/js).
func saveFile(name, typ, text string) {
	blob := js.Global().Get("Blob").New([]any{text}, map[string]any{"type": typ})
	u := js.Global().Get("URL").Call("createObjectURL", blob)
	a := h("a", at("href", u.String()), at("download", name), at("hidden", ""))
	doc.(dom.HTMLDocument).Body().AppendChild(a)
	a.(dom.HTMLElement).Click()
	a.Remove()
	win.SetTimeout(func() { js.Global().Get("URL").Call("revokeObjectURL", u) }, 1000)
}
