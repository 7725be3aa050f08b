//go:build js && wasm

package main

import (
	"github.com/shedsim/shedsim/sim"
	"github.com/shedsim/shedsim/sim/report"
	"github.com/shedsim/shedsim/wasm/markup"
)

// This file puts the comparisons' markup (markup/bars.go) into the page: the
// colour key, the stacked bars and the tables.

// legend renders the colour key of the outcomes.
func legend(kinds ...string) el {
	var m markup.Markup
	markup.WriteLegend(&m, kinds...)
	return fromMarkup(&m)
}

// shareBar renders answered, refused and timed out as one stacked bar.
func shareBar(answered, refused, timedOut float64) el {
	return fromHTML(markup.ShareBarHTML(answered, refused, timedOut))
}

// renderBars renders every policy's sale shares as stacked bars;
// placeholder bars are empty, for policies still being run.
func renderBars(rows []report.Row, chosen sim.Policy, placeholder bool) el {
	var m markup.Markup
	markup.WriteBars(&m, rows, chosen, placeholder)
	return fromMarkup(&m)
}

// renderPolicyTable renders the comparison of every policy for c;
// placeholder rows show only the names.
func renderPolicyTable(tableID string, rows []report.Row, c sim.Config, placeholder bool) el {
	var m markup.Markup
	markup.WritePolicyTable(&m, tableID, rows, c, placeholder)
	return fromMarkup(&m)
}

// tableWrap puts a table built in the DOM in WriteTableWrap's scrolling
// region.
func tableWrap(label string, table el) el {
	var m markup.Markup
	markup.WriteTableWrap(&m, label, "")
	return build(fromMarkup(&m), table)
}
