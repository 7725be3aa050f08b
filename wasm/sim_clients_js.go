//go:build js && wasm

package main

import (
	"github.com/shedsim/shedsim/sim"
	"github.com/shedsim/shedsim/sim/report"
	"github.com/shedsim/shedsim/wasm/markup"
)

// clientsPart is the client comparison (the page only): every client
// strategy for the chosen policy, as bars, a table and fluid views.
type clientsPart struct {
	section, lead, bars, table, fluid el
	tableID                           string
}

// newClientsPart finds the client comparison's parts in the frame (find,
// by name), which writes a row per client strategy ready (the numbers
// come later), so that it keeps its height when they arrive; its table
// is tableID.
func newClientsPart(find func(string) el, tableID string) *clientsPart {
	return &clientsPart{section: find("clients"), lead: find("clients-lead"), bars: find("clients-bars"),
		table: find("clients-table-box"), fluid: find("clients-fluid"), tableID: tableID}
}

// render shows every client strategy for the chosen policy. The bars are
// parsed as one piece of markup: a parse a bar took the step over 50 ms of
// the main thread's CPU at 4x in Chromium.
func (p *clientsPart) render(v report.ClientView) {
	c := v.Config
	p.lead.SetTextContent(report.ClientsLead(c))
	most := float64(1 + c.Retries)
	clear(p.fluid)
	var m markup.Markup
	for _, r := range v.Rows {
		key := r.Client.String()
		markup.WriteShareRow(&m, "data-client", key, r.Title, r.Client == c.Client, markup.LoadBarHTML(r.AttemptsPerPerson, most), report.ClientBarText(c, r))
		li := h("li", "data-client", key, r.Fluid)
		if r.Client == c.Client {
			li.Class().Add("chosen")
		}
		add(p.fluid, li)
	}
	p.bars.Underlying().Set("innerHTML", m.String())
	fill(p.table, renderClientTable(p.tableID, v.Rows, c.Client, false, report.SaleArrivals(c)))
}

// renderClientTable renders the client comparison (WriteClientTable).
func renderClientTable(tableID string, rows []report.ClientRow, chosen sim.Client, placeholder bool, arrivals string) el {
	var m markup.Markup
	markup.WriteClientTable(&m, tableID, rows, chosen, placeholder, arrivals)
	return fromMarkup(&m)
}
