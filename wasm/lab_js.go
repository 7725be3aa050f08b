//go:build js && wasm

package main

import (
	"slices"
	"strconv"
	"strings"
	"syscall/js"

	"github.com/shedsim/shedsim/sim"
	"github.com/shedsim/shedsim/sim/report"
	"github.com/shedsim/shedsim/wasm/adapter"
	"github.com/shedsim/shedsim/wasm/markup"
)

// labDim is one dimension of the lab: its key (a Config key), legend and
// choices (value, label).
type labDim struct {
	key     string
	legend  string
	choices [][2]string
}

func labDims() []labDim {
	pol := markup.ChoicesOf("policy")
	var ret [][2]string
	for _, r := range sim.LabRetries {
		l := strconv.Itoa(r)
		if r == 0 {
			l = "none"
		}
		ret = append(ret, [2]string{strconv.Itoa(r), l})
	}
	var sale [][2]string
	for _, s := range sim.LabSaleRPS {
		l := report.Number(s, 0) + "/s"
		if s == sim.DefaultConfig().NormalRPS {
			l = "none (" + l + ")"
		}
		sale = append(sale, [2]string{adapter.Fnum(s), l})
	}
	var tmo [][2]string
	for _, t := range sim.LabTimeoutMS {
		tmo = append(tmo, [2]string{adapter.Fnum(t), report.Duration(t)})
	}
	return []labDim{
		{"policy", "Policy", pol},
		{"retries", "Retries", ret},
		{"sale_rps", "Sale", sale},
		{"timeout_ms", "Client timeout", tmo},
	}
}

// labWidget is the lab: the 162 recorded combinations, each run live.
type labWidget struct {
	widget
	page     bool
	openPage *openLink // a widget's link to the lab page
	dims     []labDim
	radios   map[string][]el

	summary, title, shares, chart, verdict, lines el
	// postNote sets the post's own figure beside this seed's, where the
	// post gives one, with a link to the same run over 40 seeds; base is
	// where the site's pages are (a widget's loader's folder, "" on a
	// page).
	postNote  el
	base      string
	lastIndex int
	drawing   *drawing // the rows of a long chart's table
}

func mountLab(host el, prefix string, page bool, attrs map[string]string) *labWidget {
	w := &labWidget{widget: widget{host: host, prefix: prefix}, page: page, dims: labDims(), radios: map[string][]el{}, lastIndex: -1}
	given := w.open(page, attrs)
	w.drawing = (&drawing{}).start(&w.widget)
	form := h("form", "class", "lab-controls", "id", w.id("lab-form"), "novalidate", "")
	var bad []string
	for _, d := range w.dims {
		want := adapter.Defaults[d.key]
		if v, ok := given[d.key]; ok {
			if norm, ok := labValue(d, v); ok {
				want = norm
			} else {
				bad = append(bad, d.key+" "+strconv.Quote(v)+" is not one of the lab's")
			}
		}
		fs := build(h("fieldset", "class", "segmented", "id", w.id("lab-"+d.key)), h("legend", d.legend))
		opts := h("div", "class", "seg-options")
		for _, c := range d.choices {
			id := w.id("lab-" + d.key + "-" + c[0])
			in := h("input", "type", "radio", "id", id, "name", w.id("lab-"+d.key), "value", c[0])
			setChecked(in, c[0] == want)
			w.radios[d.key] = append(w.radios[d.key], in)
			build(opts, in, h("label", "for", id, c[1]))
		}
		add(fs, opts)
		add(form, fs)
	}
	w.summary = h("p", "class", "summary", "id", w.id("lab-summary"), "role", "status", "aria-live", "polite")
	w.postNote = h("p", "class", "post-note", "id", w.id("lab-post"))
	w.base = attrs["base"]
	w.title = h("h3", "id", w.id("lab-title"))
	w.shares = h("div", "class", "lab-shares", "id", w.id("lab-shares"))
	w.chart = h("div", "class", "chart-box", "id", w.id("lab-chart-box"))
	w.verdict = h("p", "class", "verdict", "id", w.id("lab-recovered"))
	w.lines = h("div", "class", "lines", "id", w.id("lab-lines"))
	out := build(h("section", "class", "results lab-results", "id", w.id("lab-results"), "aria-labelledby", w.id("lab-title")),
		w.title, w.summary, w.postNote, w.shares, w.chart, w.verdict, w.lines)
	if page {
		add(host, build(h("div", "class", "lab-layout"), form, out))
	} else {
		w.openPage = newOpenLink(&w.widget, attrs["base"], "lab.html", "Open in the lab")
		add(out, w.openPage.p)
		build(host, out, form) // a post's widget: its results first
		bad = append(bad, hideControls(form, attrs["controls"])...)
	}
	if !page {
		keys := w.keys()
		for _, k := range unknownAttrs(attrs, func(k string) bool { return slices.Contains(keys, k) }) {
			bad = append(bad, k+" is not a setting of the lab (use "+strings.Join(keys, ", ")+")")
		}
	}
	if len(bad) > 0 {
		w.fixed = "Not in the lab, so the default is shown: " + strings.Join(bad, "; ") + "."
		w.showError("")
	}
	w.onEl(form, "change", func(js.Value) { w.update(true) })
	w.onEl(form, "submit", func(ev js.Value) { ev.Call("preventDefault") })
	if page {
		w.on(js.Global(), "popstate", func(js.Value) { w.restore() })
	}
	w.update(false)
	return w
}

// keys are the lab's settings, one a dimension: policy, retries, sale_rps,
// timeout_ms.
func (w *labWidget) keys() []string {
	var out []string
	for _, d := range w.dims {
		out = append(out, d.key)
	}
	return out
}

// labValue normalises a value for a dimension ("2000" and "2e3" are the
// same timeout); false if it is not one of the lab's.
func labValue(d labDim, v string) (string, bool) {
	v = strings.TrimSpace(v)
	if d.key == "policy" {
		p, err := sim.ParsePolicy(v)
		if err != nil {
			return "", false
		}
		v = p.String()
	} else if x, err := sim.ParseNumber(v); err == nil { // as every number is read: not "2_000"
		v = adapter.Fnum(x)
	}
	for _, c := range d.choices {
		if c[0] == v {
			return v, true
		}
	}
	return "", false
}

// selected is the checked value of each dimension.
func (w *labWidget) selected() map[string]string {
	out := map[string]string{}
	for _, d := range w.dims {
		out[d.key] = adapter.Defaults[d.key]
		for _, r := range w.radios[d.key] {
			if checked(r) {
				out[d.key] = value(r)
			}
		}
	}
	return out
}

func (w *labWidget) restore() {
	q := currentQuery()
	for _, d := range w.dims {
		want := adapter.Defaults[d.key]
		if norm, ok := labValue(d, q[d.key]); ok {
			want = norm
		}
		for _, r := range w.radios[d.key] {
			setChecked(r, value(r) == want)
		}
	}
	w.committed = locationSearch()
	w.update(false)
}

// update runs the selected combination and shows it.
func (w *labWidget) update(commit bool) {
	sel := w.selected()
	p, _ := sim.ParsePolicy(sel["policy"])
	r, _ := strconv.Atoi(sel["retries"])
	s, _ := strconv.ParseFloat(sel["sale_rps"], 64)
	t, _ := strconv.ParseFloat(sel["timeout_ms"], 64)
	idx := adapter.LabIndex(p, r, s, t)
	if w.page && commit {
		w.syncURL(adapter.EncodeQuery(w.keys(), sel, adapter.Defaults), true)
	}
	if w.openPage != nil {
		w.openPage.to(adapter.EncodeQuery(w.keys(), sel, adapter.Defaults))
	}
	if idx == w.lastIndex {
		return
	}
	l, errs := adapter.RunLab(idx)
	if len(errs) > 0 {
		w.showError(errs[0].Field + ": " + errs[0].Msg)
		return
	}
	w.lastIndex = idx
	w.render(l)
	w.dispatch("shedsim:lab", adapter.MustJSON(l))
}

func (w *labWidget) render(l adapter.LabRun) {
	c, r := l.Config, l.Result
	retries := report.Retries(c.Retries)
	sale := "a sale of " + report.Number(c.SaleRPS, 0) + "/s"
	noSale := report.NoSale(c)
	if noSale {
		sale = "no sale"
	}
	desc := c.Policy.Title() + ", " + retries + ", " + sale + ", a " + report.Duration(c.TimeoutMS) + " timeout"
	w.title.SetTextContent("Run " + strconv.Itoa(l.Index+1) + " of " + strconv.Itoa(len(sim.Lab())) + ": " + desc)
	w.summary.SetTextContent(desc + ": " + report.Percent(r.Sale.AnsweredShare) + " of " + report.SalePeople(c) + " answered; " + l.Recovered + ".")
	if note := report.PostBesideRun(c, r.Sale.AnsweredShare); note != "" {
		q := adapter.EncodeQuery(adapter.ConfigKeys(), adapter.ConfigStrings(c), adapter.Defaults)
		if q == "" {
			q = "?"
		} else {
			q += "&"
		}
		fill(w.postNote, note+" ", h("a", "href", w.base+"index.html"+q+adapter.SeedsKey+"=40", "Open this run over 40 seeds"), ".")
		setHidden(w.postNote, false)
	} else {
		clear(w.postNote)
		setHidden(w.postNote, true)
	}

	who := "Of the " + report.Count(r.Sale.People) + " people who arrived during the sale (" + report.Seconds(c.SaleStartS) + " to " + report.Seconds(c.SaleEndS()) + ")"
	if noSale {
		who = "Of the " + report.Count(r.Sale.People) + " people who arrived from " + report.Seconds(c.SaleStartS) + " to " + report.Seconds(c.SaleEndS()) +
			" (no sale: " + report.Number(c.NormalRPS, 0) + "/s throughout)"
	}
	fill(w.shares, legend("answered", "refused", "timed_out"), shareBar(r.Sale.AnsweredShare, r.Sale.RefusedShare, r.Sale.TimedOutShare),
		h("p", "id", w.id("lab-shares-text"), who+": "+report.Percent(r.Sale.AnsweredShare)+" answered, "+
			report.Percent(r.Sale.RefusedShare)+" refused, "+report.Percent(r.Sale.TimedOutShare)+" timed out."))

	figure, box := renderChart(w.id("lab-chart"), l.Chart, "Answered per 10 s of arrivals; "+report.SaleBand(c)+".")
	fill(w.chart, figure)
	w.drawing.reset()
	renderChartTable(w.drawing, box, w.id("lab-chart"), r)
	w.drawing.add() // its rows, a step at a time

	word, kind := "Got back", "normal"
	switch {
	case r.BackToNormalS != nil:
	case r.Recovery == sim.Stuck:
		word, kind = "Stayed stuck", "stuck"
	case r.Recovery == sim.Backlog:
		word, kind = "Left with a backlog", "backlog"
	default:
		word, kind = "Not back", string(r.Recovery)
	}
	w.verdict.SetAttribute("class", "verdict verdict-"+kind)
	w.verdict.SetAttribute("data-recovery", string(r.Recovery))
	fill(w.verdict, h("strong", word+":"), " "+l.Recovered+".")
	fill(w.lines, renderLine(w.id("lab-outlook"), l.Outlook), renderLine(w.id("lab-this-run"), l.ThisRun))
}
