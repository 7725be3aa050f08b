//go:build js && wasm

package main

import (
	"github.com/shedsim/shedsim/sim/report"
	"github.com/shedsim/shedsim/wasm/markup"
)

// mechanismPart is the page's mechanism: the chosen policy's series as the
// charts the post argues from (report.MechanismCharts), each with its
// sentence and its table, under the chart over time. What they say and
// where their lines go is sim/report's; this only writes it as SVG and
// HTML, as renderChart does.
type mechanismPart struct {
	box    el
	prefix string
	// charts are the charts drawn, and tables the boxes their tables go
	// in, once drawTables runs.
	charts []report.SeriesChart
	tables []el
}

// clear empties the mechanism, for a new run's charts (add).
func (p *mechanismPart) clear() {
	clear(p.box)
	p.charts, p.tables = nil, nil
}

// add shows ch, the next of report.MechanismCharts, and its sentence,
// with an empty box for its table (drawTables).
func (p *mechanismPart) add(ch report.SeriesChart) {
	id := p.prefix + "-" + ch.Key
	box := h("div", "class", "chart-table-box", "id", id+"-table-box")
	p.charts = append(p.charts, ch)
	p.tables = append(p.tables, box)
	add(p.box, build(h("figure", "class", "chart series-chart"),
		seriesSVG(id, ch), build(h("figcaption"), h("strong", ch.Title)), seriesLegend(ch),
		h("p", "class", "line series-sentence", "id", id+"-sentence", ch.Sentence),
		build(h("details", "class", "chart-table"), h("summary", "The chart as a table"), box)))
}

// drawTables fills the tables of the charts draw drew, after them, their
// rows in steps queued on d: an hour's three tables are thousands of
// elements.
func (p *mechanismPart) drawTables(d *drawing) {
	for i, ch := range p.charts {
		id := p.prefix + "-" + ch.Key
		d.longTable(p.tables[i], id+"-table", "windows", ch.Title, ch.Title+", as a table", ch.Table, make([]bool, len(ch.Table.Rows)))
	}
}

// seriesSVG writes ch as SVG markup (StretchSVG): the sale shaded, the y
// axis's grid, the marks (timeout, bound, capacity) dashed, the curves,
// the axis's break if it has one, the time axis.
func seriesSVG(id string, ch report.SeriesChart) el {
	s := markup.StretchSVG{W: ch.Width, H: ch.Height}
	m := &s.Shapes
	p := ch.Plot
	markup.WriteRect(m, "plot-bg", p.X, p.Y, p.W, p.H)
	if b := ch.Band; b.W > 0 {
		markup.WriteRect(m, "sale", b.X, 0, b.W, b.Y+b.H)
	}
	s.YGrid(p, ch.YTicks)
	for _, k := range ch.Marks {
		markup.WriteLineMark(m, "mark "+k.Kind, p.X, p.X+p.W, k.Y, k.Y)
	}
	for _, c := range ch.Curves {
		m.Elem("path", "class", "curve "+c.Kind, "d", c.Path)
	}
	if b := ch.Break; b != (report.Span{}) {
		// The axis's break: a gap across the plot, its edges slanted
		// across the axis, the curves cut by it.
		markup.WriteRect(m, "axis-break", p.X-8, b.From, p.W+8, b.To-b.From)
		m.Elem("path", "class", "break-mark", "d", "M"+markup.SvgNum(p.X-8)+" "+markup.SvgNum(b.From+2)+"L"+markup.SvgNum(p.X+8)+" "+markup.SvgNum(b.From-2)+
			"M"+markup.SvgNum(p.X-8)+" "+markup.SvgNum(b.To+2)+"L"+markup.SvgNum(p.X+8)+" "+markup.SvgNum(b.To-2))
	}
	s.XAxis(p, ch.XTicks)
	if b := ch.Band; b.W > 0 {
		markup.WriteRect(m, "sale-mark", b.X, p.Y+p.H+3, b.W, 4)
	}
	var out markup.Markup
	s.Write(&out, "id", id, "class", "timeline series", "role", "img", "aria-label", ch.Sentence)
	return fromMarkup(&out)
}

// seriesLegend names ch's curves and marks by their line's class.
func seriesLegend(ch report.SeriesChart) el {
	ul := h("ul", "class", "legend", "aria-hidden", "true")
	for _, c := range ch.Curves {
		add(ul, build(h("li"), h("span", "class", "swatch line "+c.Kind), c.Label))
	}
	for _, k := range ch.Marks {
		add(ul, build(h("li"), h("span", "class", "swatch line mark "+k.Kind), k.Label))
	}
	return ul
}
