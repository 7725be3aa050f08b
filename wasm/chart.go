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
	writeRect(m, "plot-bg", p.X, p.Y, p.W, p.H)
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
			writeRect(m, "sale", b.X, 0, b.W, b.Y+b.H)
		}
	}
	for _, b := range ch.Incidents { // a loss or a slowdown beside the sale: outlined
		writeRect(m, "incident", b.X, b.Y, b.W, b.H)
		if b.W >= 40 {
			writeText(m, "incident-label", b.X+b.W/2, b.Y+12, "middle", b.Label)
		}
	}
	yGrid(m, p, ch.YTicks)
	for _, b := range ch.Bars {
		m.open("g", "class", "bar")
		m.elem("title", b.Label)
		for _, part := range b.Parts {
			writeRect(m, part.Kind, part.X, part.Y, part.W, part.H)
		}
		m.close("g")
	}
	xAxis(m, p, ch.XTicks)
	for _, b := range bands {
		if b.W > 0 {
			y := p.Y + p.H + 3
			writeRect(m, "sale-mark", b.X, y, b.W, 4)
			if b.W >= 30 {
				writeText(m, "sale-label", b.X+b.W/2, p.Y+p.H+18, "middle", label)
			}
		}
	}
	m.close("svg")
}

// writeRect, writeLineMark and writeText write one SVG shape of a class,
// at coordinates in the chart's units: one call with numbers, where
// elem's name and value strings are many (each is code the page's reader
// downloads, at hundreds of call sites' worth).
func writeRect(m *markup, class string, x, y, w, h float64) {
	m.tag(`<rect class="%" x="%" y="%" width="%" height="%"></rect>`, class, svgNum(x), svgNum(y), svgNum(w), svgNum(h))
}

func writeLineMark(m *markup, class string, x1, x2, y1, y2 float64) {
	m.tag(`<line class="%" x1="%" x2="%" y1="%" y2="%"></line>`, class, svgNum(x1), svgNum(x2), svgNum(y1), svgNum(y2))
}

func writeText(m *markup, class string, x, y float64, anchor, text string) {
	m.tag(`<text class="%" x="%" y="%" text-anchor="%">%</text>`, class, svgNum(x), svgNum(y), anchor, text)
}

// yGrid writes a chart's y axis: a grid line and a label at each tick.
func yGrid(m *markup, p report.Rect, ticks []report.Tick) {
	for _, t := range ticks {
		writeLineMark(m, "grid", p.X, p.X+p.W, t.At, t.At)
		writeText(m, "tick y", p.X-6, t.At+4, "end", t.Label)
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
		writeText(m, "tick x", t.At, p.Y+p.H+18, anchor, t.Label)
	}
	writeLineMark(m, "axis", p.X, p.X+p.W, p.Y+p.H, p.Y+p.H)
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
			t.raw(`<tr class="in-sale">`)
		} else {
			t.raw(`<tr>`)
		}
		t.tag(`<th scope="row">%</th>`, row[0])
		for _, cell := range row[1:] {
			t.tag(`<td>%</td>`, cell)
		}
		t.raw(`</tr>`)
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
