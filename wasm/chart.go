package main

import (
	"github.com/shedsim/shedsim/sim"
	"github.com/shedsim/shedsim/sim/report"
)

// This file writes the charts over time as markup: report.Chart geometry
// as SVG, in its figure with the table of its windows, and the lines
// under it. chart_js.go puts them into the page.

// writeChart writes a timeline chart from report.Chart geometry in its
// figure, with a box (id chartID-table-box) for the table of its windows,
// its text alternative: tableHTML (windowsTableHTML), or "" for a box the
// page fills a step later.
func writeChart(out *markup, chartID string, ch report.Chart, caption, tableHTML string) {
	out.open("figure", "class", "chart")
	writeChartSVG(out, chartID, ch)
	out.elem("figcaption", caption)
	writeLegend(out, "answered", "refused", "timed_out", "unfinished")
	out.open("details", "class", "chart-table")
	out.elem("summary", "The chart as a table")
	out.open("div", "class", "chart-table-box", "id", chartID+"-table-box")
	out.raw(tableHTML)
	out.close("div")
	out.close("details")
	out.close("figure")
}

// writeChartSVG writes the chart itself: the plot, the sale's bands, the
// incidents, the grid, a stacked bar a window and the time axis.
func writeChartSVG(m *markup, chartID string, ch report.Chart) {
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
	yGrid(m, p, ch.YTicks)
	for _, b := range ch.Bars {
		m.open("g", "class", "bar")
		m.elem("title", b.Label)
		for _, part := range b.Parts {
			m.elem("rect", "class", part.Kind, "x", svgNum(part.X), "y", svgNum(part.Y), "width", svgNum(part.W), "height", svgNum(part.H))
		}
		m.close("g")
	}
	xAxis(m, p, ch.XTicks)
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

// windowsTableHTML is every window of r as a table, in its scrolling
// region: the chart's text alternative, which the page draws a step after
// the chart, since an hour's 360 windows are as many elements again.
func windowsTableHTML(chartID string, r sim.Result) string {
	tab, inSale := report.WindowTable(r)
	var t markup
	writeTableHead(&t, chartID+"-table", "windows", report.WindowsCaption, tab.Header)
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
	var m markup
	writeTableWrap(&m, "The chart's windows", t.String())
	return m.String()
}

// writeLine writes a labelled line under the chart.
func writeLine(m *markup, id string, l report.Line) {
	m.open("p", "class", "line", "id", id)
	m.elem("strong", l.Label+":")
	m.text(" " + l.Text)
	m.close("p")
}
