//go:build js && wasm

package main

import (
	"github.com/shedsim/shedsim/sim"
	"github.com/shedsim/shedsim/sim/report"
	"github.com/shedsim/shedsim/wasm/markup"
)

// This file puts the charts over time (markup/chart.go) into the page.

// renderChart renders a timeline chart from report.Chart geometry, with a
// box for the table of its windows, its text alternative, which
// renderChartTable fills once the chart is in the document.
func renderChart(chartID string, ch report.Chart, caption string) (figure, tableBox el) {
	var m markup.Markup
	markup.WriteChart(&m, chartID, ch, caption, "")
	figure = fromMarkup(&m)
	return figure, wrap(figure.Underlying().Call("querySelector", ".chart-table-box"))
}

// renderChartTable fills box, which renderChart left for the chart's text
// alternative, with every window of r as a table, its rows a few steps at
// a time (d.longTable): an hour's 360 windows are as many elements again
// as the chart.
func renderChartTable(d *drawing, box el, chartID string, r sim.Result) {
	tab, inSale := report.WindowTable(r)
	d.longTable(box, chartID+"-table", "windows", report.WindowsCaption, "The chart's windows", tab, inSale)
}

// fromMarkup parses m, which holds one element (and what is inside it),
// into an element not yet in the document (see fromHTML).
func fromMarkup(m *markup.Markup) el { return fromHTML(m.String()) }

// fromHTML parses html, one element (and what is inside it), into an
// element not yet in the document: with one call into JavaScript, through
// a <template>, whose parser makes an <svg> and what it holds SVG
// elements, as the page's own parser would.
func fromHTML(html string) el {
	t := docJS.Call("createElement", "template")
	t.Set("innerHTML", html)
	return wrap(t.Get("content").Get("firstElementChild"))
}

// renderLine renders a labelled line under the chart.
func renderLine(id string, l report.Line) el {
	var m markup.Markup
	markup.WriteLine(&m, id, l)
	return fromMarkup(&m)
}
