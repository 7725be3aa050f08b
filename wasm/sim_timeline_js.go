//go:build js && wasm

package main

import (
	"github.com/shedsim/shedsim/sim"
	"github.com/shedsim/shedsim/sim/report"
)

// timelinePart is the chosen policy over time: its chart, the two lines
// under it and, on the page, the fluid view.
type timelinePart struct {
	title, chart, lines el
	fluid               el             // the page only
	mech                *mechanismPart // the page only
	tableBox            el             // where the chart's table goes, once the chart is drawn
	chartID, outlookID  string
	thisRunID           string
}

func newTimelinePart(w *widget, page bool) *timelinePart {
	p := &timelinePart{
		title:     h("h3", "id", w.id("chart-title")),
		chart:     h("div", "id", w.id("chart-box"), "class", "chart-box"),
		lines:     h("div", "class", "lines", "id", w.id("lines")),
		chartID:   w.id("chart"),
		outlookID: w.id("outlook"),
		thisRunID: w.id("this-run"),
	}
	if page {
		p.fluid = h("ul", "class", "fluid", "id", w.id("fluid"))
		p.mech = newMechanismPart(w)
	}
	return p
}

// section is the page's block of the chart.
func (p *timelinePart) section(w *widget) el {
	s := build(h("section", "class", "block", "aria-labelledby", w.id("chart-title")), p.title, p.chart, p.lines)
	if p.mech != nil {
		add(s, p.mech.box)
	}
	return s
}

// fluidDetails is the page's fold-out of the fluid view.
func (p *timelinePart) fluidDetails() el {
	return build(h("details", "class", "fluid-details"), h("summary", "The fluid view: does a full unbounded queue drain after the sale?"), p.fluid)
}

// renderTable fills the chart's table of windows, after render, its
// rows in steps queued on d.
func (p *timelinePart) renderTable(d *drawing, v report.View) {
	if p.tableBox != nil {
		renderChartTable(d, p.tableBox, p.chartID, v.Chosen)
	}
}

// renderChart draws the chart, after render.
func (p *timelinePart) renderChart(v report.View) {
	figure, box := renderChart(p.chartID, v.Chart, report.TimelineCaption(v.Config))
	fill(p.chart, figure)
	p.tableBox = box
}

// renderMechanism draws, on the page, the mechanism of r, the chosen run
// with its series (report.BuildMechanism), but for its tables
// (renderMechanismTables), after renderTable.
func (p *timelinePart) renderMechanism(r *sim.Result) {
	if p.mech == nil {
		return
	}
	if m, ok := report.BuildMechanism(*r); ok {
		p.mech.draw(&m)
	} else {
		p.mech.draw(nil)
	}
}

// renderMechanismTables fills the mechanism's tables, after
// renderMechanism, their rows in steps queued on d.
func (p *timelinePart) renderMechanismTables(d *drawing) {
	if p.mech != nil {
		p.mech.drawTables(d)
	}
}

// render shows v's chosen policy over time, all but the chart and its
// table (renderChart and renderTable): an hour's chart is thousands of
// elements, which the page draws a step at a time.
func (p *timelinePart) render(v report.View) {
	c := v.Config
	p.title.SetTextContent(report.TimelineTitle(c))
	fill(p.lines, renderLine(p.outlookID, v.Outlook), renderLine(p.thisRunID, v.ThisRun))
	if p.fluid != nil {
		clear(p.fluid)
		for _, l := range v.Fluid {
			add(p.fluid, h("li", l))
		}
	}
}
