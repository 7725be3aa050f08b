//go:build js && wasm

package main

import (
	"github.com/shedsim/shedsim/sim"
	"github.com/shedsim/shedsim/sim/report"
)

// This file holds the comparisons' renderers: the colour key, the stacked
// bars and the tables, from report's rows and text tables.

// Outcome kinds, bottom up, with their words, and the kinds of the
// client comparison's bars.
var outcomes = [][2]string{{"answered", "answered"}, {"refused", "refused"}, {"timed_out", "timed out"}, {"unfinished", "still waiting"},
	{"first_try", "first attempts"}, {"retry", "retries"}}

// legend renders the colour key of the outcomes.
func legend(kinds ...string) el {
	ul := h("ul", "class", "legend", "aria-hidden", "true")
	for _, k := range kinds {
		for _, o := range outcomes {
			if o[0] == k {
				add(ul, build(h("li"), h("span", "class", "swatch "+k), o[1]))
			}
		}
	}
	return ul
}

// shareBar renders answered, refused and timed out as one stacked bar, 100
// units wide; its text is beside it, so the SVG is hidden from screen
// readers.
func shareBar(answered, refused, timedOut float64) el {
	return stackBar([]string{"answered", "refused", "timed_out"}, answered, refused, timedOut)
}

// stackBar renders shares (fractions of the width) side by side, each of
// the class its kind names, 100 units wide.
func stackBar(kinds []string, shares ...float64) el {
	s := svg("svg", "class", "share-bar", "viewBox", "0 0 100 10", "preserveAspectRatio", "none", "aria-hidden", "true", "focusable", "false")
	x := 0.0
	for i, v := range shares {
		w := min(v*100, 100-x)
		if w <= 0 {
			continue
		}
		add(s, svg("rect", "class", kinds[i], "x", num(x), "y", "0", "width", num(w), "height", "10"))
		x += w
	}
	return s
}

//go:noinline
func num(x float64) string { return report.Number(x, 3) }

// svgNum formats a coordinate for an SVG attribute (no thousands
// separators).
//
//go:noinline
func svgNum(x float64) string { return fnum(float64(int64(float64(x*100)+0.5)) / 100) }

// renderBars renders every policy's sale shares as stacked bars;
// placeholder bars are empty, for policies still being run.
func renderBars(rows []report.Row, chosen sim.Policy, placeholder bool) el {
	ul := h("ul", "class", "policy-bars")
	for _, r := range rows {
		text := r.Shares()
		if placeholder {
			text = "…"
		}
		add(ul, shareRow("data-policy", r.Policy.String(), r.Title, r.Policy == chosen, shareBar(r.Answered, r.Refused, r.TimedOut), text))
	}
	return ul
}

// loadBar renders a client's attempts per person as a bar out of most,
// the first attempt apart from the retries.
func loadBar(attempts, most float64) el {
	first := min(attempts, 1)
	return stackBar([]string{"first_try", "retry"}, first/most, max(attempts-first, 0)/most)
}

// shareRow is one named bar of a list such as renderBars': its key in
// attribute keyAttr, marked "(yours)" when chosen, with text under the
// bar.
func shareRow(keyAttr, key, title string, chosen bool, bar el, text string) el {
	li := h("li", "class", "policy-bar", keyAttr, key)
	name := h("span", "class", "bar-name", title)
	if chosen {
		li.Class().Add("chosen")
		build(name, " ", h("span", "class", "chosen-tag", "(yours)"))
	}
	return build(li, name, bar, h("span", "class", "bar-text", text))
}

// tableWrap puts a table in a scrolling region that a keyboard can reach.
func tableWrap(label string, table el) el {
	return build(h("div", "class", "table-wrap", "role", "region", "aria-label", label, "tabindex", "0"), table)
}

// renderTable renders a comparison from report's text table, the same
// headers and cells the command line prints: the first cell of each row is
// a row header, keys[i] is row i's data-KIND attribute, and the row whose key
// is chosen is marked as the reader's. With placeholder, only the first
// column is filled, for a table still being computed.
func renderTable(tableID, class, caption, label, kind string, tab report.Table, keys []string, chosen string, placeholder bool) el {
	var m markup
	m.open("table", "id", tableID, "class", class)
	m.elem("caption", caption)
	m.open("thead")
	m.open("tr")
	for _, c := range tab.Header {
		m.elem("th", "scope", "col", c)
	}
	m.close("tr")
	m.close("thead")
	m.open("tbody")
	for i, row := range tab.Rows {
		if keys[i] == chosen {
			m.open("tr", "data-"+kind, keys[i], "class", "chosen", "aria-current", "true")
		} else {
			m.open("tr", "data-"+kind, keys[i])
		}
		m.elem("th", "scope", "row", "class", kind+"-name", row[0])
		for _, c := range row[1:] {
			if placeholder {
				c = "…"
			}
			m.elem("td", c)
		}
		m.close("tr")
	}
	m.close("tbody")
	m.close("table")
	return tableWrap(label, fromMarkup(&m))
}

// renderPolicyTable renders the comparison of every policy for c;
// placeholder rows show only the names.
func renderPolicyTable(tableID string, rows []report.Row, c sim.Config, placeholder bool) el {
	keys := make([]string, len(rows))
	for i, r := range rows {
		keys[i] = r.Policy.String()
	}
	return renderTable(tableID, "compare", report.ComparisonCaption(c),
		"Comparison of every policy", "policy", report.ComparisonTable(rows), keys, c.Policy.String(), placeholder)
}
