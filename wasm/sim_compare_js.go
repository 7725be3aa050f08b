//go:build js && wasm

package main

import (
	"github.com/shedsim/shedsim/sim"
	"github.com/shedsim/shedsim/sim/report"
)

// comparePart is every policy side by side: the bars, and, where the
// frame has them (WriteResults), their heading, the table and the note
// under it. The chart widget has none of them.
type comparePart struct {
	title, bars, table, about el // each nil where the frame has none
	seedsNote                 el // over seeds, how far they have got, then how to read the bars (sim_seeds_js.go)
	tableID                   string
}

// newComparePart finds the comparison's parts in the frame (find, by
// name); its table is tableID.
func newComparePart(find func(string) el, tableID string) *comparePart {
	return &comparePart{title: find("bars-title"), bars: find("bars"), table: find("table-box"), about: find("about-numbers"),
		seedsNote: find("seeds-note"), tableID: tableID}
}

// draw shows the comparison of every policy under c; placeholder rows show
// the policies' names alone.
func (p *comparePart) draw(c sim.Config, rows []report.Row, placeholder bool) {
	if p.title != nil {
		p.title.SetTextContent(report.ComparisonTitle(c))
	}
	if p.bars != nil {
		fill(p.bars, renderBars(rows, c.Policy, placeholder))
	}
	if p.table != nil {
		fill(p.table, renderPolicyTable(p.tableID, rows, c, placeholder))
	}
	if p.about != nil {
		p.about.SetTextContent(report.AboutTheNumbers(c))
	}
}

// showSeedsNote shows text above the bars, or (shown false) hides the
// line as it is; the chart widget, which has no bars, has no such line.
func (p *comparePart) showSeedsNote(text string, shown bool) {
	if p.seedsNote == nil {
		return
	}
	if shown {
		p.seedsNote.SetTextContent(text)
	}
	setHidden(p.seedsNote, !shown)
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
