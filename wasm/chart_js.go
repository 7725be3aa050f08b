//go:build js && wasm

package main

import (
	"github.com/shedsim/shedsim/sim"
	"github.com/shedsim/shedsim/sim/report"
)

// This file holds the charts over time: report.Chart geometry drawn as SVG,
// with its table, and the lines under it.

// renderChart renders a timeline chart from report.Chart geometry, with a
// box for the table of its windows, its text alternative, which
// renderChartTable fills once the chart is in the document. The SVG and
// the table, hundreds of elements, are written as markup (see markup).
func renderChart(chartID string, ch report.Chart, caption string) (figure, tableBox el) {
	var m markup
	m.open("svg", "id", chartID, "class", "timeline", "viewBox", "0 0 "+svgNum(ch.Width)+" "+svgNum(ch.Height),
		"role", "img", "aria-label", ch.Summary, "preserveAspectRatio", "xMidYMid meet")
	p := ch.Plot
	m.elem("rect", "class", "plot-bg", "x", svgNum(p.X), "y", svgNum(p.Y), "width", svgNum(p.W), "height", svgNum(p.H))
	bands := append([]report.Rect{ch.Sale}, ch.Waves...) // a sale's waves, each shaded
	label := ch.BandLabel
	if label == "" {
		label = "sale"
	}
	for _, b := range bands {
		if b.W > 0 {
			// The band runs from the top of the chart, above the bars
			// (which may fill the plot), to the axis, and the sale is
			// named under the axis, between the ticks.
			m.elem("rect", "class", "sale", "x", svgNum(b.X), "y", "0", "width", svgNum(b.W), "height", svgNum(b.Y+b.H))
		}
	}
	for _, b := range ch.Incidents { // a loss or a slowdown beside the sale: outlined
		m.elem("rect", "class", "incident", "x", svgNum(b.X), "y", svgNum(b.Y), "width", svgNum(b.W), "height", svgNum(b.H))
		if b.W >= 40 {
			m.elem("text", "class", "incident-label", "x", svgNum(b.X+b.W/2), "y", svgNum(b.Y+12), "text-anchor", "middle", b.Label)
		}
	}
	yGrid(&m, p, ch.YTicks)
	for _, b := range ch.Bars {
		m.open("g", "class", "bar")
		m.elem("title", b.Label)
		for _, part := range b.Parts {
			m.elem("rect", "class", part.Kind, "x", svgNum(part.X), "y", svgNum(part.Y), "width", svgNum(part.W), "height", svgNum(part.H))
		}
		m.close("g")
	}
	xAxis(&m, p, ch.XTicks)
	for _, b := range bands {
		if b.W > 0 {
			y := p.Y + p.H + 3
			m.elem("rect", "class", "sale-mark", "x", svgNum(b.X), "y", svgNum(y), "width", svgNum(b.W), "height", "4")
			if b.W >= 30 {
				m.elem("text", "class", "sale-label", "x", svgNum(b.X+b.W/2), "y", svgNum(p.Y+p.H+18), "text-anchor", "middle", label)
			}
		}
	}
	m.close("svg")
	tableBox = h("div", "class", "chart-table-box", "id", chartID+"-table-box")
	figure = build(h("figure", "class", "chart"), fromMarkup(&m),
		h("figcaption", caption), legend("answered", "refused", "timed_out", "unfinished"),
		build(h("details", "class", "chart-table"), h("summary", "The chart as a table"), tableBox))
	return figure, tableBox
}

// yGrid writes a chart's y axis: a grid line and a label at each tick.
func yGrid(m *markup, p report.Rect, ticks []report.Tick) {
	for _, t := range ticks {
		m.elem("line", "class", "grid", "x1", svgNum(p.X), "x2", svgNum(p.X+p.W), "y1", svgNum(t.At), "y2", svgNum(t.At))
		m.elem("text", "class", "tick y", "x", svgNum(p.X-6), "y", svgNum(t.At+4), "text-anchor", "end", t.Label)
	}
}

// xAxis writes a chart's time axis under plot p: its labels and its line.
func xAxis(m *markup, p report.Rect, ticks []report.Tick) {
	for i, t := range ticks {
		// The first and last labels start and end at their ticks, so that
		// they stay clear of the share axis's labels and inside the chart.
		anchor := "middle"
		switch i {
		case 0:
			anchor = "start"
		case len(ticks) - 1:
			anchor = "end"
		}
		m.elem("text", "class", "tick x", "x", svgNum(t.At), "y", svgNum(p.Y+p.H+18), "text-anchor", anchor, t.Label)
	}
	m.elem("line", "class", "axis", "x1", svgNum(p.X), "x2", svgNum(p.X+p.W), "y1", svgNum(p.Y+p.H), "y2", svgNum(p.Y+p.H))
}

// renderChartTable fills box, which renderChart left for the chart's text
// alternative, with every window of r as a table: a step of its own,
// since an hour's 360 windows are as many elements again as the chart.
func renderChartTable(box el, chartID string, r sim.Result) {
	tab, inSale := report.WindowTable(r)
	var t markup
	t.open("table", "id", chartID+"-table", "class", "windows")
	t.elem("caption", report.WindowsCaption)
	t.open("thead")
	t.open("tr")
	for _, col := range tab.Header {
		t.elem("th", "scope", "col", col)
	}
	t.close("tr")
	t.close("thead")
	t.open("tbody")
	for i, row := range tab.Rows {
		if inSale[i] {
			t.open("tr", "class", "in-sale")
		} else {
			t.open("tr")
		}
		t.elem("th", "scope", "row", row[0])
		for _, cell := range row[1:] {
			t.elem("td", cell)
		}
		t.close("tr")
	}
	t.close("tbody")
	t.close("table")
	fill(box, tableWrap("The chart's windows", fromMarkup(&t)))
}

// fromMarkup parses m, which holds one element (and what is inside it),
// into an element not yet in the document: with one call into JavaScript,
// through a <template>, whose parser makes an <svg> and what it holds SVG
// elements, as the page's own parser would.
func fromMarkup(m *markup) el {
	t := docJS.Call("createElement", "template")
	t.Set("innerHTML", m.String())
	return wrap(t.Get("content").Get("firstElementChild"))
}

// renderLine renders a labelled line under the chart.
func renderLine(id string, l report.Line) el {
	return build(h("p", "class", "line", "id", id), h("strong", l.Label+":"), " "+l.Text)
}
