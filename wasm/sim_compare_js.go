//go:build js && wasm

package main

import (
	"github.com/shedsim/shedsim/sim"
	"github.com/shedsim/shedsim/sim/report"
)

// comparePart is every policy side by side: the bars and, on the page,
// their heading, the table and the note under it.
type comparePart struct {
	title       el // the page only
	bars, table el // table: the page only
	about       el // the page only
	seedsNote   el // over seeds, how far they have got, then how to read the bars (sim_seeds_js.go)
	tableID     string
	// drawBars is false for the chart widget, which shows no bars.
	drawBars bool
}

func newComparePart(w *widget, page, drawBars bool) *comparePart {
	p := &comparePart{bars: h("div", "id", w.id("bars"), "class", "bars"), drawBars: drawBars || page,
		seedsNote: h("p", "class", "seeds-note", "id", w.id("seeds-note"), "hidden", "")}
	if page {
		p.title = h("h3", "id", w.id("bars-title"), "Every policy, for the people who arrived during the sale")
		p.table = h("div", "id", w.id("table-box"))
		p.about = h("p", "class", "note", "id", w.id("about-numbers"))
		p.tableID = w.id("compare")
	}
	return p
}

// section is the page's block of the comparison.
func (p *comparePart) section(w *widget) el {
	return build(h("section", "class", "block", "aria-labelledby", w.id("bars-title")),
		p.title, legend("answered", "refused", "timed_out"), p.seedsNote, p.bars, p.table, p.about)
}

// draw shows the comparison of every policy under c; placeholder rows show
// the policies' names alone.
func (p *comparePart) draw(c sim.Config, rows []report.Row, placeholder bool) {
	if p.title != nil {
		p.title.SetTextContent(report.ComparisonTitle(c))
	}
	if p.drawBars {
		fill(p.bars, renderBars(rows, c.Policy, placeholder))
	}
	if p.table != nil {
		fill(p.table, renderPolicyTable(p.tableID, rows, c, placeholder))
	}
	if p.about != nil {
		p.about.SetTextContent(report.AboutTheNumbers(c))
	}
}

// placeholders draws the policies' names alone, before any has run.
func (p *comparePart) placeholders(c sim.Config) {
	rows := make([]report.Row, len(sim.Policies))
	for i, pol := range sim.Policies {
		rows[i] = report.Row{Policy: pol, Title: pol.Title()}
	}
	p.draw(c, rows, true)
}

// measuredLater are the parts a recompute measures after its first paint.
func (p *comparePart) measuredLater() []el { return []el{p.bars, p.table} }
