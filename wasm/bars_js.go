//go:build js && wasm

package main

import (
	"github.com/shedsim/shedsim/sim"
	"github.com/shedsim/shedsim/sim/report"
)

// This file puts the comparisons' markup (bars.go) into the page: the
// colour key, the stacked bars and the tables.

// legend renders the colour key of the outcomes.
func legend(kinds ...string) el {
	var m markup
	writeLegend(&m, kinds...)
	return fromMarkup(&m)
}

// shareBar renders answered, refused and timed out as one stacked bar.
func shareBar(answered, refused, timedOut float64) el {
	return fromHTML(shareBarHTML(answered, refused, timedOut))
}

// renderBars renders every policy's sale shares as stacked bars;
// placeholder bars are empty, for policies still being run.
func renderBars(rows []report.Row, chosen sim.Policy, placeholder bool) el {
	var m markup
	writeBars(&m, rows, chosen, placeholder)
	return fromMarkup(&m)
}

// renderPolicyTable renders the comparison of every policy for c;
// placeholder rows show only the names.
func renderPolicyTable(tableID string, rows []report.Row, c sim.Config, placeholder bool) el {
	var m markup
	writePolicyTable(&m, tableID, rows, c, placeholder)
	return fromMarkup(&m)
}

// tableWrap puts a table built in the DOM in writeTableWrap's scrolling
// region.
func tableWrap(label string, table el) el {
	var m markup
	writeTableWrap(&m, label, "")
	return build(fromMarkup(&m), table)
}
