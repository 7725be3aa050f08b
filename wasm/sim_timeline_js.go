//go:build js && wasm

package main

import "github.com/shedsim/shedsim/sim/report"

// timelinePart is the chosen policy over time: its chart, the two lines
// under it and, on the page, the fluid view.
type timelinePart struct {
	title, chart, lines el
	fluid               el             // the whole simulator only
	mech                *mechanismPart // the whole simulator only
	tableBox            el             // where the chart's table goes, once the chart is drawn
	chartID, outlookID  string
	thisRunID           string
}

// newTimelinePart finds the chart's parts in the frame (find, by name);
// id names the ones drawn later. The compare widget has none of them.
func newTimelinePart(find func(string) el, id func(string) string) *timelinePart {
	p := &timelinePart{
		title:     find("chart-title"),
		chart:     find("chart-box"),
		lines:     find("lines"),
		fluid:     find("fluid"),
		chartID:   id("chart"),
		outlookID: id("outlook"),
		thisRunID: id("this-run"),
	}
	if box := find("mechanism"); box != nil {
		p.mech = &mechanismPart{box: box, prefix: id("mech")}
	}
	return p
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
	if p.chart == nil {
		return
	}
	figure, box := renderChart(p.chartID, v.Chart, report.TimelineCaption(v.Config))
	fill(p.chart, figure)
	p.tableBox = box
}

// renderMechanismTables fills the mechanism's tables, after its charts
// (mechanismSteps), their rows in steps queued on d.
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
