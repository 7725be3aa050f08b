//go:build js && wasm

package main

import (
	"github.com/shedsim/shedsim/sim"
	"github.com/shedsim/shedsim/sim/report"
)

// clientsPart is the client comparison (the page only): every client
// strategy for the chosen policy, as bars, a table and fluid views.
type clientsPart struct {
	section, lead, bars, table, fluid el
	tableID                           string
}

// newClientsPart builds the client comparison's section, with a row per
// client strategy ready (the numbers come later), so that it keeps its
// height when they arrive.
func newClientsPart(w *widget) *clientsPart {
	p := &clientsPart{
		lead:    h("p", "id", w.id("clients-lead")),
		bars:    h("ul", "class", "policy-bars client-bars", "id", w.id("clients-bars")),
		table:   h("div", "id", w.id("clients-table-box")),
		fluid:   h("ul", "class", "fluid", "id", w.id("clients-fluid")),
		tableID: w.id("clients-table"),
	}
	rows := make([]report.ClientRow, len(sim.Clients))
	for i, c := range sim.Clients {
		rows[i] = report.ClientRow{Client: c, Title: c.Title()}
		add(p.bars, shareRow("data-client", c.String(), c.Title(), false, loadBarHTML(0, 1), "…"))
		add(p.fluid, h("li", "data-client", c.String(), "…"))
	}
	fill(p.table, renderClientTable(p.tableID, rows, -1, true, "during the sale"))
	p.section = build(h("section", "class", "block clients", "id", w.id("clients"), "aria-labelledby", w.id("clients-title")),
		h("h3", "id", w.id("clients-title"), "Clients: how they retry"), p.lead,
		h("p", "class", "note", "id", w.id("clients-note"), report.ClientsNote),
		legend("first_try", "retry"), p.bars, p.table,
		h("p", "class", "fluid-lead", report.ClientsFluidLead), p.fluid)
	return p
}

// render shows every client strategy for the chosen policy.
func (p *clientsPart) render(v report.ClientView) {
	c := v.Config
	p.lead.SetTextContent(report.ClientsLead(c))
	most := float64(1 + c.Retries)
	clear(p.bars)
	clear(p.fluid)
	for _, r := range v.Rows {
		key := r.Client.String()
		add(p.bars, shareRow("data-client", key, r.Title, r.Client == c.Client, loadBarHTML(r.AttemptsPerPerson, most), report.ClientBarText(c, r)))
		li := h("li", "data-client", key, r.Fluid)
		if r.Client == c.Client {
			li.Class().Add("chosen")
		}
		add(p.fluid, li)
	}
	fill(p.table, renderClientTable(p.tableID, v.Rows, c.Client, false, report.SaleArrivals(c)))
}

// renderClientTable renders the client comparison; placeholder rows show
// only the names.
func renderClientTable(tableID string, rows []report.ClientRow, chosen sim.Client, placeholder bool, arrivals string) el {
	keys := make([]string, len(rows))
	for i, r := range rows {
		keys[i] = r.Client.String()
	}
	return renderTable(tableID, "compare clients-table", report.ClientsCaption(arrivals),
		"Comparison of every client strategy", "client", report.ClientTable(rows), keys, chosen.String(), placeholder)
}
