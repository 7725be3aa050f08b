package markup

import (
	"github.com/shedsim/shedsim/sim"
	"github.com/shedsim/shedsim/sim/report"
)

// This file writes the simulator's results frame as markup: the section,
// its headings, the status lines and every part's (empty) box, as the page
// and each kind of widget lay them out. It is the frame's one source: the
// page's WebAssembly inserts it and finds its parts in it
// (simWidget.buildResults), and the prerender writes it with the default
// run's results filled in (prerender.go), so that the two cannot differ
// (tools/browser's TestPrerendered).

// ResultsFrame is a layout of the simulator's results.
type ResultsFrame struct {
	// Prefix starts every id (a widget's; "" on the page).
	Prefix string
	// Page: the simulator page, whose headline is pinned beside the form
	// with a glance of the chart (style.css, loader.js's pinGlance) and
	// whose heading is an h2.
	Page bool
	// Kind is the widget's: "full" (the whole simulator, as the page has
	// it), "compare" (the bars, the table folded), "chart" (one run's
	// chart) or "simulator" (the bars and the chart).
	Kind string
	// Base is the site's address, for a widget's link to the page.
	Base string
}

// Whole reports whether the frame is the whole simulator's, as the page
// has it: every policy, the chart over time and its mechanism, the
// advice, the clients, the downloads.
func (f ResultsFrame) Whole() bool { return f.Page || f.Kind == "full" }

func (f ResultsFrame) id(name string) string { return f.Prefix + name }

// FrameFill is what a prerendered frame holds: the default run's view
// under c. A frame without one is empty, for the engine to fill.
type FrameFill struct {
	C sim.Config
	V *report.View
}

// WriteResults writes the frame f of the results, filled from fill, or
// empty (fill nil). A prerendered frame (fill set) has a line for the
// loader's progress and stops after the chart over time: the advice, the
// clients and the downloads need the engine.
func WriteResults(m *Markup, f ResultsFrame, fill *FrameFill) {
	title, head := "Results", "h2"
	if !f.Whole() {
		title = "Every policy in the sale"
	}
	if !f.Page {
		head = "h3"
	}
	m.tag(`<section class="results" id="%" aria-labelledby="%">`, f.id("results"), f.id("results-title"))
	m.tag(`<`+head+` id="%" tabindex="-1">%</`+head+`>`, f.id("results-title"), title)
	// The summary shows every input's headline; the live region after it
	// announces only a committed input's (announceResult).
	summary := "Computing…"
	if fill != nil {
		summary = report.Headline(fill.V.Chosen)
	}
	if f.Page {
		m.tag(`<div class="pinned" id="%"><p class="summary" id="%">%</p><div class="glance" id="%" aria-hidden="true">`,
			f.id("pinned"), f.id("summary"), summary, f.id("glance"))
		if fill != nil {
			writeChartSVG(m, f.id("glance-chart"), fill.V.Chart)
		}
		m.Raw(`</div></div>`)
	} else {
		m.tag(`<p class="summary" id="%">%</p>`, f.id("summary"), summary)
	}
	if fill != nil {
		m.tag(`<p class="engine-loading" id="%" role="status" hidden=""></p>`, f.id("engine-loading"))
	}
	m.tag(`<p class="visually-hidden" id="%" role="status" aria-live="polite"></p>`+
		`<p class="stale-note" id="%" hidden="">These results are for the last valid input.</p>`+
		`<p class="empty-note" id="%" hidden="">No results yet: fix the marked fields.</p>`+
		`<div class="results-body" id="%">`, f.id("announce"), f.id("stale-note"), f.id("empty-note"), f.id("results-body"))
	switch {
	case f.Whole():
		// The post's order: every policy's bars and table, the chosen
		// policy over time, what to change; the clients' comparison after.
		m.tag(`<section class="block" aria-labelledby="%"><h3 id="%">`, f.id("bars-title"), f.id("bars-title"))
		writeComparison(m, f, fill)
		m.Raw(`</section>`)
		m.tag(`<section class="block" aria-labelledby="%">`, f.id("chart-title"))
		writeTimeline(m, f, fill)
		m.tag(`<div class="mechanism" id="%"></div></section>`, f.id("mechanism"))
		writeChainBox(m, f, fill)
		if fill == nil {
			writeLaterParts(m, f)
		}
	case f.Kind == "chart":
		// The section's heading is the chart's title.
		writeChartBox(m, f, fill)
		writeChainBox(m, f, fill)
	case f.Kind == "compare":
		writeBarsBox(m, f, fill)
		m.tag(`<details class="compare-details"><summary>Every number, as a table</summary><div id="%"></div></details>`, f.id("table-box"))
		writeChainBox(m, f, fill)
	default:
		writeBarsBox(m, f, fill)
		writeTimeline(m, f, fill)
		writeChainBox(m, f, fill)
	}
	if !f.Page {
		WriteOpenLink(m, f.id("open-full"), f.Base+"index.html", "Open in the full simulator")
	}
	m.Raw(`</div></section>`)
}

// writeComparison writes the page's comparison block after its heading's
// start tag, as comparePart.draw fills them: the title, the colour key,
// the bars, the table and the note under it.
func writeComparison(m *Markup, f ResultsFrame, fill *FrameFill) {
	if fill != nil {
		m.Text(report.ComparisonTitle(fill.C))
	}
	m.Raw(`</h3>`)
	writeBarsBox(m, f, fill)
	m.tag(`<div id="%">`, f.id("table-box"))
	if fill != nil {
		WritePolicyTable(m, f.id("compare"), fill.V.Rows, fill.C, false)
	}
	m.tag(`</div><p class="note" id="%">`, f.id("about-numbers"))
	if fill != nil {
		m.Text(report.AboutTheNumbers(fill.C))
	}
	m.Raw(`</p>`)
}

// writeBarsBox writes the colour key, the line about the seeds and the
// bars of every policy.
func writeBarsBox(m *Markup, f ResultsFrame, fill *FrameFill) {
	WriteLegend(m, "answered", "refused", "timed_out")
	m.tag(`<p class="seeds-note" id="%" hidden=""></p><div id="%" class="bars">`, f.id("seeds-note"), f.id("bars"))
	if fill != nil {
		WriteBars(m, fill.V.Rows, fill.C.Policy, false)
	}
	m.Raw(`</div>`)
}

// writeTimeline writes the chosen policy over time: its title, its chart
// and the lines under it.
func writeTimeline(m *Markup, f ResultsFrame, fill *FrameFill) {
	m.tag(`<h3 id="%">`, f.id("chart-title"))
	if fill != nil {
		m.Text(report.TimelineTitle(fill.C))
	}
	m.Raw(`</h3>`)
	writeChartBox(m, f, fill)
}

// writeChartBox writes the chart's box and the lines' under it.
func writeChartBox(m *Markup, f ResultsFrame, fill *FrameFill) {
	m.tag(`<div id="%" class="chart-box">`, f.id("chart-box"))
	if fill != nil {
		WriteChart(m, f.id("chart"), fill.V.Chart, report.TimelineCaption(fill.C), windowsTableHTML(f.id("chart"), fill.V.Chosen))
	}
	m.tag(`</div><div class="lines" id="%">`, f.id("lines"))
	if fill != nil {
		WriteLine(m, f.id("outlook"), fill.V.Outlook)
		WriteLine(m, f.id("this-run"), fill.V.ThisRun)
	}
	m.Raw(`</div>`)
}

// writeChainBox writes the box of the chosen run's chain (WriteChain),
// hidden while it has none.
func writeChainBox(m *Markup, f ResultsFrame, fill *FrameFill) {
	if fill == nil || fill.V.Chain == nil {
		m.tag(`<section class="block chain" id="%" aria-labelledby="%" hidden=""></section>`, f.id("chain"), f.id("chain-title"))
		return
	}
	m.tag(`<section class="block chain" id="%" aria-labelledby="%">`, f.id("chain"), f.id("chain-title"))
	WriteChain(m, f.Prefix, *fill.V, true)
	m.Raw(`</section>`)
}

// writeLaterParts writes the whole simulator's parts that its later runs
// fill: what to change, the clients (a row per client strategy ready, so
// that the section keeps its height when the numbers arrive), the fluid
// view and the downloads with the timings.
func writeLaterParts(m *Markup, f ResultsFrame) {
	m.tag(`<section class="block" aria-labelledby="%"><h3 id="%">What to change</h3><ol class="advice" id="%"></ol></section>`,
		f.id("advice-title"), f.id("advice-title"), f.id("advice"))

	m.tag(`<section class="block clients" id="%" aria-labelledby="%"><h3 id="%">Clients: how they retry</h3><p id="%"></p><p class="note" id="%">%</p>`,
		f.id("clients"), f.id("clients-title"), f.id("clients-title"), f.id("clients-lead"), f.id("clients-note"), report.ClientsNote)
	WriteLegend(m, "first_try", "retry")
	m.tag(`<ul class="policy-bars client-bars" id="%">`, f.id("clients-bars"))
	rows := make([]report.ClientRow, len(sim.Clients))
	for i, c := range sim.Clients {
		rows[i] = report.ClientRow{Client: c, Title: c.Title()}
		WriteShareRow(m, "data-client", c.String(), c.Title(), false, LoadBarHTML(0, 1), "…")
	}
	m.tag(`</ul><div id="%">`, f.id("clients-table-box"))
	WriteClientTable(m, f.id("clients-table"), rows, -1, true, "during the sale")
	m.tag(`</div><p class="fluid-lead">%</p><ul class="fluid" id="%">`, report.ClientsFluidLead, f.id("clients-fluid"))
	for _, c := range sim.Clients {
		m.tag(`<li data-client="%">…</li>`, c.String())
	}
	m.Raw(`</ul></section>`)

	m.tag(`<details class="fluid-details"><summary>The fluid view: does a full unbounded queue drain after the sale?</summary><ul class="fluid" id="%"></ul></details>`, f.id("fluid"))
	m.tag(`<p class="downloads"><button type="button" id="%" class="secondary">Download CSV</button> `+
		`<button type="button" id="%" class="secondary">Download JSON</button> <span class="timing" id="%"></span></p>`,
		f.id("download-csv"), f.id("download-json"), f.id("timing"))
}

// WriteClientTable writes the client comparison; placeholder rows show
// only the names.
func WriteClientTable(m *Markup, tableID string, rows []report.ClientRow, chosen sim.Client, placeholder bool, arrivals string) {
	keys := make([]string, len(rows))
	for i, r := range rows {
		keys[i] = r.Client.String()
	}
	WriteTable(m, tableID, "compare clients-table", report.ClientsCaption(arrivals),
		"Comparison of every client strategy", "client", report.ClientTable(rows), keys, chosen.String(), placeholder)
}

// WriteOpenLink writes a widget's link to its page, in its paragraph.
func WriteOpenLink(m *Markup, id, href, text string) {
	m.tag(`<p class="open-full-p"><a class="open-full" id="%" href="%">%</a></p>`, id, href, text)
}
