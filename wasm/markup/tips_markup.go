package markup

import (
	"github.com/shedsim/shedsim/sim/report"
	"github.com/shedsim/shedsim/sim/sweep"
	"github.com/shedsim/shedsim/wasm/adapter"
)

// tipsOwnSpecs are the fields of a kind's own settings, in the form's
// order.
func tipsOwnSpecs(kind string) []FieldSpec {
	if kind == adapter.TipsMap {
		return []FieldSpec{{"policy", "Policy", "", ""},
			{"x", "Across", "", ""}, {"x_from", "From", "", "decimal"}, {"x_to", "To", "", "decimal"}, {"x_steps", "Steps", "", "numeric"},
			{"y", "Up", "", ""}, {"y_from", "From", "", "decimal"}, {"y_to", "To", "", "decimal"}, {"y_steps", "Steps", "", "numeric"},
			{"seeds", "Seeds", "in each cell", "numeric"}}
	}
	return []FieldSpec{{"knob", "Knob", "", ""}, {"from", "From", "", "decimal"}, {"to", "To", "", "decimal"}, {"steps", "Steps", "", "numeric"},
		{"seeds", "Seeds", "at every step", "numeric"}, {"policy", "Policies", "", ""},
		{"below", "Mark answered under", "a share: 0.5 or 50%", "decimal"}}
}

// tipsBaseSpecs are the base Config's fields on the tips page: the
// simulator's, but the policy, which is the sweep's or the map's own.
func tipsBaseSpecs() []FieldSpec {
	var out []FieldSpec
	for _, g := range SimGroups {
		for _, s := range g.Fields {
			// The policy and the seeds are the request's own fields (a
			// sweep's policies; its seeds at every step), not the base's.
			if s.Key != "policy" && s.Key != adapter.SeedsKey {
				out = append(out, s)
			}
		}
	}
	return out
}

// tipsChoices are the options of a tips field's menu, nil for a field
// typed in: the knobs, by the form's label and key, and the policies
// (for a sweep, every policy first).
func tipsChoices(kind, key string) [][2]string {
	switch key {
	case "kind":
		return [][2]string{{adapter.TipsSweep, "A sweep of one knob"}, {adapter.TipsMap, "A map of two knobs"}}
	case "knob", "x", "y":
		var out [][2]string
		base := tipsBaseSpecs()
		for _, k := range sweep.KnobKeys() {
			label := k
			for _, s := range base {
				if s.Key == k {
					label = s.Label + " (" + k + ")"
				}
			}
			out = append(out, [2]string{k, label})
		}
		return out
	case "policy":
		if kind == adapter.TipsSweep {
			return append([][2]string{{adapter.AllPolicies, "Every policy"}}, ChoicesOf("policy")...)
		}
	case adapter.SeedsKey:
		return nil // typed in: a sweep runs any number of seeds its budget allows, not the simulator's 1, 10 or 40
	}
	return ChoicesOf(key)
}

// WriteTipsForm writes the tips form: on the page, the kind and, in a
// <details>, the base Config's fields; always, the kind's own fields. Its
// fields are in the order of specs.
func WriteTipsForm(m *Markup, prefix, kind string, vals map[string]string, page bool) (specs []FieldSpec) {
	m.Raw(`<form class="controls tips-controls" novalidate="" aria-label="What to vary" id="`)
	m.Text(prefix + "tips-form")
	m.Raw(`"><fieldset class="group"><legend>What to vary</legend>`)
	own := tipsOwnSpecs(kind)
	if page {
		own = append([]FieldSpec{{"kind", "Show", "", ""}}, own...)
		vals["kind"] = kind
	}
	for _, s := range own {
		writeTipsField(m, prefix, kind, s, vals[s.Key])
	}
	m.Raw(`</fieldset>`)
	if page {
		m.Raw(`<details class="advanced"><summary>The rest of the configuration, the same at every step</summary><fieldset class="group"><legend class="visually-hidden">The rest of the configuration</legend>`)
		for _, s := range tipsBaseSpecs() {
			WriteField(m, prefix, s, vals[s.Key], false, "")
		}
		m.Raw(`</fieldset></details><div class="form-actions"><button type="submit">Run</button></div>`)
		own = append(own, tipsBaseSpecs()...)
	}
	m.Raw(`</form>`)
	return own
}

// writeTipsField writes one of the kind's own fields: a menu of
// tipsChoices, or a text input.
func writeTipsField(m *Markup, prefix, kind string, s FieldSpec, val string) {
	writeFieldOf(m, prefix, s, tipsChoices(kind, s.Key), val, false, "")
}

// WriteTipsResults writes the results' empty frame, which tips_js.go
// fills: the status, the sentence, the chart, the link to the simulator
// and the table.
func WriteTipsResults(m *Markup, prefix, kind string) {
	title := "Where it tips: one knob, every policy"
	if kind == adapter.TipsMap {
		title = "Where it tips: two knobs, one policy"
	}
	m.Raw(`<section class="results tips" id="`)
	m.Text(prefix + "tips-results")
	m.Raw(`"><h2>`)
	m.Text(title)
	m.Raw(`</h2><p class="summary" role="status" aria-live="polite" id="`)
	m.Text(prefix + "tips-status")
	m.Raw(`"></p><p class="stale-note" hidden="">These results are for the last valid input.</p><div class="results-body"><p class="tips-sentence" id="`)
	m.Text(prefix + "tips-sentence")
	m.Raw(`"></p><div class="chart-box"></div><p class="tips-now"><a href="index.html" id="`)
	m.Text(prefix + "tips-open-sim")
	m.Raw(`"></a></p><div class="tips-table-box"></div></div></section>`)
}

// This file writes "Where it tips" as markup: the sweep's chart and table
// and the map's, from sim/report's geometry and words. Every point, cell
// and table button that sets a value carries it as data-set (a sweep's
// knob) or data-set-x and data-set-y (a map's two), which tips_js.go reads
// on a click or a key.

// openTipsChart opens a sweep's or a map's figure and its svg, of class
// class, width by height in the chart's units, labelled by its summary.
func openTipsChart(m *Markup, id, class string, width, height float64, summary string) {
	m.open("figure", "class", "chart tips-chart")
	m.open("svg", "id", id, "class", class, "viewBox", "0 0 "+SvgNum(width)+" "+SvgNum(height),
		"role", "img", "aria-label", summary, "preserveAspectRatio", "xMidYMid meet")
}

// SweepMarkup writes a sweep's chart as a figure: a curve per policy with
// its band, the flips and the crossings of the threshold marked, the
// current value, and a legend; its axis is named by knob's field
// (knobName).
func SweepMarkup(id string, ch report.SweepChart, knob string) *Markup {
	knob = knobName(knob)
	var m Markup
	openTipsChart(&m, id, "tips-sweep", ch.Width, ch.Height, ch.Summary)
	p := ch.Plot
	m.Elem("rect", "class", "plot-bg", "x", SvgNum(p.X), "y", SvgNum(p.Y), "width", SvgNum(p.W), "height", SvgNum(p.H))
	for _, t := range ch.YTicks {
		WriteLineMark(&m, "grid", p.X, p.X+p.W, t.At, t.At)
		m.tag(`<text class="tick y" x="%" y="%" text-anchor="end">%</text>`, SvgNum(p.X-6), SvgNum(t.At+4), t.Label)
	}
	for _, cv := range ch.Curves {
		for _, run := range cv.Runs {
			var band, line string
			for _, pt := range run {
				band += SvgNum(pt.X) + "," + SvgNum(pt.High) + " "
				line += SvgNum(pt.X) + "," + SvgNum(pt.Y) + " "
			}
			for i := len(run) - 1; i >= 0; i-- {
				band += SvgNum(run[i].X) + "," + SvgNum(run[i].Low) + " "
			}
			m.Elem("polygon", "class", "band pol-"+cv.Policy, "points", band)
			m.Elem("polyline", "class", "curve pol-"+cv.Policy, "points", line)
		}
	}
	if ch.BelowLabel != "" {
		m.Elem("line", "class", "below-line", "x1", SvgNum(p.X), "x2", SvgNum(p.X+p.W), "y1", SvgNum(ch.Below), "y2", SvgNum(ch.Below))
		m.Elem("text", "class", "mark-label below-label", "x", SvgNum(ch.BelowAt.X), "y", SvgNum(ch.BelowAt.Y), "text-anchor", ch.BelowAnchor, ch.BelowLabel)
	}
	if ch.NowLabel != "" {
		m.Elem("line", "class", "now-line", "x1", SvgNum(ch.Now), "x2", SvgNum(ch.Now), "y1", SvgNum(p.Y), "y2", SvgNum(p.Y+p.H))
		x, anchor := ch.Now+4, "start"
		if ch.Now > p.X+p.W/2 {
			x, anchor = ch.Now-4, "end"
		}
		m.Elem("text", "class", "mark-label now-label", "x", SvgNum(x), "y", SvgNum(p.Y+12), "text-anchor", anchor, ch.NowLabel)
	}
	for _, cv := range ch.Curves {
		for _, run := range cv.Runs {
			for _, pt := range run {
				m.open("circle", "class", "pt pol-"+cv.Policy, "cx", SvgNum(pt.X), "cy", SvgNum(pt.Y), "r", "4", "data-set", pt.Set)
				m.Elem("title", pt.Label)
				m.close("circle")
			}
		}
		for _, f := range cv.Flips {
			d := "M" + SvgNum(f.X) + " " + SvgNum(f.Y-7) + "l7 7l-7 7l-7 -7z"
			m.open("path", "class", "flip pol-"+cv.Policy, "d", d)
			m.Elem("title", f.Label)
			m.close("path")
		}
		for _, b := range cv.Below {
			m.open("circle", "class", "cross pol-"+cv.Policy, "cx", SvgNum(b.X), "cy", SvgNum(b.Y), "r", "6")
			m.Elem("title", b.Label)
			m.close("circle")
		}
	}
	for _, cv := range ch.Curves {
		if e := cv.End; e.Label != "" {
			m.tag(`<text class="end-label pol-%" x="%" y="%">%</text>`, cv.Policy, SvgNum(e.X), SvgNum(e.Y+4), e.Label)
		}
	}
	for _, t := range ch.XTicks {
		// A tick at an end of the axis is written inward from it, clear
		// of the 0% beside it and of the curves' names past the right.
		anchor := "middle"
		switch {
		case t.At <= p.X+0.5:
			anchor = "start"
		case t.At >= p.X+p.W-0.5:
			anchor = "end"
		}
		m.tag(`<text class="tick x" x="%" y="%" text-anchor="%">%</text>`, SvgNum(t.At), SvgNum(p.Y+p.H+report.SweepTickBaseline), anchor, t.Label)
	}
	WriteLineMark(&m, "axis", p.X, p.X+p.W, p.Y+p.H, p.Y+p.H)
	m.Elem("text", "class", "axis-label", "x", SvgNum(p.X+p.W/2), "y", SvgNum(p.Y+p.H+report.SweepAxisLabelBaseline), "text-anchor", "middle", knob)
	m.close("svg")
	m.Elem("figcaption", "The answered share of the sale at each step, a curve per policy, each dashed its own way and named at its right end, shaded a standard deviation either side between seeds. "+
		"A diamond marks where most seeds stop (or start) getting back to normal, a ring where the answered share crosses the threshold, "+
		"the upright line the value now. Choose a point, or a value in the table, to set it.")
	m.open("ul", "class", "legend", "aria-hidden", "true")
	for _, cv := range ch.Curves {
		// Each curve's swatch is a stretch of its line, dashed as it is.
		m.tag(`<li><svg class="swatch-line" viewBox="0 0 28 10" width="28" height="10"><line class="curve pol-%" x1="1" x2="27" y1="5" y2="5"></line></svg>%</li>`, cv.Policy, cv.Title)
	}
	m.close("ul")
	m.close("figure")
	return &m
}

// SweepTableMarkup writes a sweep's numbers as a table, a row per policy
// and value, with a button on each value that sets it, and the curves'
// marks under it.
func SweepTableMarkup(id string, sw sweep.Sweep) *Markup {
	s := sw.Spec
	k, err := sweep.ParseKnob(s.Knob)
	if err != nil {
		return &Markup{}
	}
	now := k.Get(s.Base)
	var m Markup
	m.open("div", "class", "tips-table")
	m.open("div", "class", "table-wrap", "role", "region", "aria-label", "The sweep's steps", "tabindex", "0")
	m.open("table", "id", id, "class", "tips-steps")
	m.Elem("caption", report.SweepCaption(sw, s.Knob))
	m.open("thead")
	m.open("tr")
	for _, c := range []string{"Policy", knobName(s.Knob), "Answered", "Refused", "Timed out", "p99 wait", "Recovery"} {
		m.Elem("th", "scope", "col", c)
	}
	m.close("tr")
	m.close("thead")
	m.open("tbody")
	groups := report.CurveGroups(sw) // the post's six apart from the limits
	for c, cv := range sw.Curves {
		if len(groups) > 0 && groups[0].From == c {
			if c > 0 {
				m.Raw("</tbody><tbody>")
			}
			m.tag(`<tr class="row-group"><th scope="rowgroup" colspan="7">%</th></tr>`, groups[0].Title)
			groups = groups[1:]
		}
		for i, o := range cv.Steps {
			v := sw.Values[i]
			if v == now {
				m.open("tr", "data-policy", cv.Policy.String(), "class", "now", "aria-current", "true")
			} else {
				m.open("tr", "data-policy", cv.Policy.String())
			}
			m.Elem("th", "scope", "row", cv.Policy.Title())
			m.open("td")
			m.Elem("button", "type", "button", "class", "set", "data-set", report.KnobValue(v), "aria-label", "Set "+s.Knob+" to "+report.KnobValue(v), report.KnobValue(v))
			m.close("td")
			for _, c := range []string{report.ShareSpread(o.Answered), report.ShareSpread(o.Refused), report.ShareSpread(o.TimedOut),
				report.WaitSpread(o.P99WaitMS), report.Recoveries(o)} {
				m.Elem("td", c)
			}
			m.close("tr")
		}
	}
	m.close("tbody")
	m.close("table")
	m.close("div")
	m.open("ul", "class", "tips-marks")
	for _, cv := range sw.Curves {
		for _, line := range report.SweepMarks(cv, s.Below) {
			m.Elem("li", cv.Policy.Title()+": "+line)
		}
	}
	m.close("ul")
	m.close("div")
	return &m
}

// MapMarkup writes a map's chart as a figure: a cell per pair of values,
// coloured by the seeds back to normal, its words in its title.
func MapMarkup(id string, ch report.MapChart) *Markup {
	var m Markup
	openTipsChart(&m, id, "tips-map", ch.Width, ch.Height, ch.Summary)
	p := ch.Plot
	for _, c := range ch.Cells {
		m.open("rect", "class", "cell "+c.Class, "x", SvgNum(c.X), "y", SvgNum(c.Y), "width", SvgNum(c.W), "height", SvgNum(c.H),
			"data-set-x", c.SetX, "data-set-y", c.SetY)
		m.Elem("title", c.Label)
		m.close("rect")
	}
	if ch.NowLabel != "" {
		n := ch.Now
		m.open("rect", "class", "now-cell", "x", SvgNum(n.X+1.5), "y", SvgNum(n.Y+1.5), "width", SvgNum(n.W-3), "height", SvgNum(n.H-3))
		m.Elem("title", ch.NowLabel)
		m.close("rect")
	}
	for _, t := range ch.XTicks {
		m.Elem("text", "class", "tick x", "x", SvgNum(t.At), "y", SvgNum(p.Y+p.H+16), "text-anchor", "middle", t.Label)
	}
	for _, t := range ch.YTicks {
		m.Elem("text", "class", "tick y", "x", SvgNum(p.X-6), "y", SvgNum(t.At+4), "text-anchor", "end", t.Label)
	}
	m.Elem("text", "class", "axis-label", "x", SvgNum(p.X+p.W/2), "y", SvgNum(p.Y+p.H+36), "text-anchor", "middle", ch.XLabel)
	m.Elem("text", "class", "axis-label", "x", "12", "y", SvgNum(p.Y+p.H/2), "text-anchor", "middle",
		"transform", "rotate(-90 12 "+SvgNum(p.Y+p.H/2)+")", ch.YLabel)
	m.close("svg")
	m.Elem("figcaption", ch.Caption)
	m.open("ul", "class", "legend", "aria-hidden", "true")
	for _, l := range report.MapLevels {
		m.open("li")
		m.Elem("span", "class", "swatch "+l[0], "")
		m.b.WriteString(l[1])
		m.close("li")
	}
	m.close("ul")
	m.close("figure")
	return &m
}

// MapTableMarkup writes a map's cells as a table, Y down and X across,
// each cell a button that sets both values.
func MapTableMarkup(id string, mp sweep.Map) *Markup {
	s := mp.Spec
	var m Markup
	m.open("div", "class", "table-wrap tips-table", "role", "region", "aria-label", "The map's cells", "tabindex", "0")
	m.open("table", "id", id, "class", "tips-cells")
	m.Elem("caption", report.MapCaption(mp, s.X.Knob, s.Y.Knob, "down"))
	m.open("thead")
	m.open("tr")
	m.Elem("th", "scope", "col", s.Y.Knob+" \\ "+s.X.Knob)
	for _, x := range mp.Xs {
		m.Elem("th", "scope", "col", report.KnobValue(x))
	}
	m.close("tr")
	m.close("thead")
	m.open("tbody")
	for j, row := range mp.Cells {
		m.open("tr")
		m.Elem("th", "scope", "row", report.KnobValue(mp.Ys[j]))
		for i, o := range row {
			m.open("td")
			m.Elem("button", "type", "button", "class", "set "+report.BackClass(o), "data-set-x", report.KnobValue(mp.Xs[i]), "data-set-y", report.KnobValue(mp.Ys[j]),
				"title", report.MapLabel(s, mp.Xs[i], mp.Ys[j], o), report.MapCell(o))
			m.close("td")
		}
		m.close("tr")
	}
	m.close("tbody")
	m.close("table")
	m.close("div")
	return &m
}
