package markup

import (
	"strconv"

	"github.com/shedsim/shedsim/sim/report"
)

// This file writes a chain (sim/MODEL.md rule 40) as the simulator draws
// it under the chosen policy's chart: its services as a row of boxes, the
// entry first, an arrow from each to the one it calls; their table; the
// bottleneck, the retries and the fluid view; then each hop's chart over
// time (WriteHopChart). The boxes are an ordered list, so that a screen
// reader reads each box's text in the order of the calls, and a print has
// them as text; widget.css lays them out as a row, or a column where the
// widget is narrow.

// WriteChain writes v's chain into the chain's box (id prefix+"chain"),
// with a box for each hop's chart, filled with it (WriteHopChart) when
// charts is true, else empty, for the page to fill a step later; nothing
// for a view without a chain.
func WriteChain(m *Markup, prefix string, v report.View, charts bool) {
	ch := v.Chain
	if ch == nil {
		return
	}
	id := prefix + "chain"
	m.tag(`<h3 id="%-title">The chain, with %</h3><ol class="chain-boxes" aria-labelledby="%-title">`, id, report.PolicyNoun(v.Config.Policy)+" at the entry", id)
	for k, s := range ch.Services {
		class := "chain-service"
		if k == ch.Bottleneck {
			class += " bottleneck"
		}
		answered := report.Percent(s.Answered) + " answered"
		if s.Calls == 0 {
			answered = "no calls in the sale"
		}
		retries := "no retries"
		if s.MostTries > 1 {
			retries = report.Retries(s.MostTries - 1)
		}
		m.tag(`<li class="%"><strong class="chain-name">%</strong><span>% workers, %/s</span><span>%</span><span>% busy, % calling</span><span class="chain-tries">×%: %</span>`,
			class, s.Name, strconv.Itoa(s.Workers), report.Number(s.CapacityRPS, 1), answered, report.Percent(s.Busy), report.Percent(s.Calling),
			strconv.Itoa(s.MostTries), retries)
		if k == ch.Bottleneck {
			m.Raw(`<span class="chain-flag">the bottleneck</span>`)
		}
		m.Raw(`</li>`)
	}
	m.Raw(`</ol>`)
	keys := make([]string, len(ch.Services))
	for k, s := range ch.Services {
		keys[k] = s.Name
	}
	WriteTable(m, id+"-table", "compare chain-table", report.ChainCaption(v.Config), "Each service of the chain", "service", report.ChainTable(*ch), keys, "", false)
	m.Raw(`<div class="lines">`)
	WriteLine(m, id+"-bottleneck", ch.BottleneckLine)
	WriteLine(m, id+"-retries", ch.Retries)
	m.tag(`</div><p class="fluid-lead">%:</p><ul class="fluid">`, report.ChainFluidLead)
	for _, l := range ch.Fluid {
		m.Elem("li", l)
	}
	m.Raw(`</ul>`)
	for k := range ch.Services[1:] {
		m.tag(`<div class="chain-chart" id="%">`, id+"-"+strconv.Itoa(k+1))
		if charts {
			WriteHopChart(m, prefix, v, k)
		}
		m.Raw(`</div>`)
	}
}

// WriteHopChart writes hop k's chart over time (report.HopRun), for its
// box that WriteChain writes: its title, and the chart with its windows
// as a table.
func WriteHopChart(m *Markup, prefix string, v report.View, k int) {
	r := report.HopRun(v.Chosen, k)
	name := v.Chosen.Hops[k].Hop.Name
	chartID := prefix + "chain-" + strconv.Itoa(k+1) + "-chart"
	m.tag(`<h4>%</h4>`, report.HopChartTitle(name))
	WriteChart(m, chartID, report.Timeline(r), report.HopChartCaption(name, r.Config), windowsTableHTML(chartID, r))
}
