package markup

import (
	"github.com/shedsim/shedsim/sim"
	"github.com/shedsim/shedsim/sim/report"
)

// This file writes the charts over time as markup: report.Chart geometry
// as SVG, in its figure with the table of its windows, and the lines
// under it. chart_js.go puts them into the page.

// WriteChart writes a timeline chart from report.Chart geometry in its
// figure, with a box (id chartID-table-box) for the table of its windows,
// its text alternative: tableHTML (windowsTableHTML), or "" for a box the
// page fills a step later.
func WriteChart(out *Markup, chartID string, ch report.Chart, caption, tableHTML string) {
	out.open("figure", "class", "chart")
	writeChartSVG(out, chartID, ch)
	out.Elem("figcaption", caption)
	WriteLegend(out, "answered", "refused", "timed_out", "unfinished")
	out.open("details", "class", "chart-table")
	out.Elem("summary", "The chart as a table")
	out.open("div", "class", "chart-table-box", "id", chartID+"-table-box")
	out.Raw(tableHTML)
	out.close("div")
	out.close("details")
	out.close("figure")
}

// writeChartSVG writes the chart itself (StretchSVG): the plot, the sale's
// bands, the incidents, the grid, a stacked bar a window and the time axis.
func writeChartSVG(out *Markup, chartID string, ch report.Chart) {
	s := StretchSVG{W: ch.Width, H: ch.Height}
	m := &s.Shapes
	p := ch.Plot
	WriteRect(m, "plot-bg", p.X, p.Y, p.W, p.H)
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
			WriteRect(m, "sale", b.X, 0, b.W, b.Y+b.H)
		}
	}
	for _, b := range ch.Incidents { // a loss or a slowdown beside the sale: outlined
		WriteRect(m, "incident", b.X, b.Y, b.W, b.H)
		if b.W >= 40 {
			s.text("incident-label", b.X+b.W/2, b.Y+12, "middle", b.Label)
		}
	}
	s.YGrid(p, ch.YTicks)
	for _, b := range ch.Bars {
		m.open("g", "class", "bar")
		m.Elem("title", b.Label)
		for _, part := range b.Parts {
			WriteRect(m, part.Kind, part.X, part.Y, part.W, part.H)
		}
		m.close("g")
	}
	s.XAxis(p, ch.XTicks)
	for _, b := range bands {
		if b.W > 0 {
			y := p.Y + p.H + 3
			WriteRect(m, "sale-mark", b.X, y, b.W, 4)
			if b.W >= 30 {
				s.text("sale-label", b.X+b.W/2, p.Y+p.H+18, "middle", label)
			}
		}
	}
	s.Write(out, "id", chartID, "class", "timeline", "role", "img", "aria-label", ch.Summary)
}

// WriteRect and WriteLineMark (and StretchSVG's text) write one SVG shape of a class,
// at coordinates in the chart's units: one call with numbers, where
// elem's name and value strings are many (each is code the page's reader
// downloads, at hundreds of call sites' worth).
func WriteRect(m *Markup, class string, x, y, w, h float64) {
	m.tag(`<rect class="%" x="%" y="%" width="%" height="%"></rect>`, class, SvgNum(x), SvgNum(y), SvgNum(w), SvgNum(h))
}

func WriteLineMark(m *Markup, class string, x1, x2, y1, y2 float64) {
	m.tag(`<line class="%" x1="%" x2="%" y1="%" y2="%"></line>`, class, SvgNum(x1), SvgNum(x2), SvgNum(y1), SvgNum(y2))
}

// StretchSVG writes a chart whose shapes stretch to the box the page's CSS
// gives it and whose labels keep the size CSS sets: the shapes go in an
// inner <svg> with the chart's viewBox, w x h, and
// preserveAspectRatio="none" (their strokes do not scale:
// vector-effect: non-scaling-stroke), the labels in the outer one, at the
// same places as percentages. So a chart is as wide as its viewBox on a
// laptop, taller on a phone and short where it is pinned beside the form,
// with 11 px labels at every size: a chart scaled whole to a phone's
// 358 px was 130 px tall, with 6 px labels.
type StretchSVG struct {
	Shapes, labels Markup
	W, H           float64
}

// text writes a label at (x, y), in the viewBox's units.
func (s *StretchSVG) text(class string, x, y float64, anchor, text string) {
	s.labels.tag(`<text class="%" x="%" y="%" text-anchor="%">%</text>`, class, SvgNum(float64(x/s.W)*100)+"%", SvgNum(float64(y/s.H)*100)+"%", anchor, text)
}

// Write writes the chart into out, its outer <svg> with attrs.
func (s *StretchSVG) Write(out *Markup, attrs ...string) {
	out.open("svg", attrs...)
	out.tag(`<svg class="plot-area" viewBox="0 0 % %" preserveAspectRatio="none" width="100%" height="100%">`, SvgNum(s.W), SvgNum(s.H))
	out.Raw(s.Shapes.String())
	out.close("svg")
	out.Raw(s.labels.String())
	out.close("svg")
}

// YGrid writes a chart's y axis: a grid line and a label at each tick.
func (s *StretchSVG) YGrid(p report.Rect, ticks []report.Tick) {
	for _, t := range ticks {
		WriteLineMark(&s.Shapes, "grid", p.X, p.X+p.W, t.At, t.At)
		s.text("tick y", p.X-6, t.At+4, "end", t.Label)
	}
}

// XAxis writes a chart's time axis under plot p: its labels and its line.
// Every other label is minor, which a column too narrow for them all
// hides (widget.css): in a sidebar's 280 px they ran into one another.
func (s *StretchSVG) XAxis(p report.Rect, ticks []report.Tick) {
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
		class := "tick x"
		if i%2 == 1 {
			class = "tick x minor"
		}
		s.text(class, t.At, p.Y+p.H+18, anchor, t.Label)
	}
	WriteLineMark(&s.Shapes, "axis", p.X, p.X+p.W, p.Y+p.H, p.Y+p.H)
}

// windowsTableHTML is every window of r as a table, in its scrolling
// region: the chart's text alternative, which the page draws a step after
// the chart, since an hour's 360 windows are as many elements again.
func windowsTableHTML(chartID string, r sim.Result) string {
	tab, inSale := report.WindowTable(r)
	var t Markup
	WriteTableHead(&t, chartID+"-table", "windows", report.WindowsCaption, tab.Header)
	WriteRows(&t, tab.Rows, inSale)
	t.close("tbody")
	t.close("table")
	var m Markup
	WriteTableWrap(&m, "The chart's windows", t.String())
	return m.String()
}

// WriteRows writes rows of a table, the first cell of each its header:
// those of the sale (inSale[i]) of class "in-sale".
func WriteRows(m *Markup, rows [][]string, inSale []bool) {
	for i, row := range rows {
		if inSale[i] {
			m.Raw(`<tr class="in-sale">`)
		} else {
			m.Raw(`<tr>`)
		}
		m.tag(`<th scope="row">%</th>`, row[0])
		for _, cell := range row[1:] {
			m.tag(`<td>%</td>`, cell)
		}
		m.Raw(`</tr>`)
	}
}

// WriteLine writes a labelled line under the chart.
func WriteLine(m *Markup, id string, l report.Line) {
	m.open("p", "class", "line", "id", id)
	m.Elem("strong", l.Label+":")
	m.Text(" " + l.Text)
	m.close("p")
}
