package markup

import (
	"strconv"
	"strings"

	"github.com/shedsim/shedsim/sim"
	"github.com/shedsim/shedsim/sim/report"
	"github.com/shedsim/shedsim/wasm/adapter"
)

// This file writes the comparisons as markup: the colour key, the stacked
// bars and the tables, from report's rows and text tables. bars_js.go
// puts them into the page; prerender.go writes the default run's into
// site/index.html.

// Outcome kinds, bottom up, with their words, and the kinds of the
// client comparison's bars.
var outcomes = [][2]string{{"answered", "answered"}, {"refused", "refused"}, {"timed_out", "timed out"}, {"unfinished", "still waiting"},
	{"first_try", "first attempts"}, {"retry", "retries"}}

// WriteLegend writes the colour key of the outcome kinds.
func WriteLegend(m *Markup, kinds ...string) {
	m.open("ul", "class", "legend", "aria-hidden", "true")
	for _, k := range kinds {
		for _, o := range outcomes {
			if o[0] == k {
				m.tag(`<li><span class="swatch %"></span>%</li>`, k, o[1])
			}
		}
	}
	m.close("ul")
}

// stackBarHTML writes shares (fractions of the width) side by side, each
// of the class its kind names, as an SVG 100 units wide; its text is
// beside it, so the SVG is hidden from screen readers.
func stackBarHTML(kinds []string, shares ...float64) string {
	var m Markup
	m.open("svg", "class", "share-bar", "viewBox", "0 0 100 10", "preserveAspectRatio", "none", "aria-hidden", "true", "focusable", "false")
	x := 0.0
	for i, v := range shares {
		w := min(v*100, 100-x)
		if w <= 0 {
			continue
		}
		m.tag(`<rect class="%" x="%" y="0" width="%" height="10"></rect>`, kinds[i], num(x), num(w))
		x += w
	}
	m.close("svg")
	return m.String()
}

// ShareBarHTML is answered, refused and timed out as one stacked bar.
func ShareBarHTML(answered, refused, timedOut float64) string {
	return stackBarHTML([]string{"answered", "refused", "timed_out"}, answered, refused, timedOut)
}

// LoadBarHTML is a client's attempts per person as a bar out of most, the
// first attempt apart from the retries.
func LoadBarHTML(attempts, most float64) string {
	first := min(attempts, 1)
	return stackBarHTML([]string{"first_try", "retry"}, first/most, max(attempts-first, 0)/most)
}

//go:noinline
func num(x float64) string { return report.Number(x, 3) }

// SvgNum formats a coordinate for an SVG attribute (no thousands
// separators).
//
//go:noinline
func SvgNum(x float64) string { return adapter.Fnum(float64(int64(float64(x*100)+0.5)) / 100) }

// WriteShareRow writes one named bar of a list such as WriteBars': its key
// in attribute keyAttr, marked "(yours)" when chosen, with text under the
// bar (barHTML, from stackBarHTML).
func WriteShareRow(m *Markup, keyAttr, key, title string, chosen bool, barHTML, text string) {
	if chosen {
		m.tag(`<li class="policy-bar chosen" %="%"><span class="bar-name">% <span class="chosen-tag">(yours)</span></span>`, keyAttr, key, title)
	} else {
		m.tag(`<li class="policy-bar" %="%"><span class="bar-name">%</span>`, keyAttr, key, title)
	}
	m.Raw(barHTML)
	m.tag(`<span class="bar-text">%</span></li>`, text)
}

// WriteBars writes every policy's sale shares as stacked bars;
// placeholder bars are empty, for policies still being run.
func WriteBars(m *Markup, rows []report.Row, chosen sim.Policy, placeholder bool) {
	m.open("ul", "class", "policy-bars")
	groups := report.RowGroups(rows)
	for i, r := range rows {
		if len(groups) > 0 && groups[0].From == i { // the post's six apart from the limits
			m.Elem("li", "class", "policy-group", groups[0].Title)
			groups = groups[1:]
		}
		text := r.Shares()
		if placeholder {
			text = "…"
		}
		WriteShareRow(m, "data-policy", r.Policy.String(), r.Title, r.Policy == chosen, ShareBarHTML(r.Answered, r.Refused, r.TimedOut), text)
	}
	m.close("ul")
}

// WriteTableWrap writes a table (tableHTML) in a scrolling region that a
// keyboard can reach.
func WriteTableWrap(m *Markup, label, tableHTML string) {
	m.open("div", "class", "table-wrap", "role", "region", "aria-label", label, "tabindex", "0")
	m.Raw(tableHTML)
	m.close("div")
}

// WriteTable writes a comparison from report's text table, the same
// headers and cells the command line prints, in its scrolling region: the
// first cell of each row is a row header, keys[i] is row i's data-KIND
// attribute, and the row whose key is chosen is marked as the reader's.
// With placeholder, only the first column is filled, for a table still
// being computed.
func WriteTable(out *Markup, tableID, class, caption, label, kind string, tab report.Table, keys []string, chosen string, placeholder bool) {
	var m Markup
	WriteTableHead(&m, tableID, class, caption, tab.Header)
	groups := tab.Groups
	for i, row := range tab.Rows {
		if len(groups) > 0 && groups[0].From == i { // a tbody a group, titled
			if i > 0 {
				m.Raw("</tbody><tbody>")
			}
			m.tag(`<tr class="row-group"><th scope="rowgroup" colspan="%">%</th></tr>`, strconv.Itoa(len(tab.Header)), groups[0].Title)
			groups = groups[1:]
		}
		if keys[i] == chosen {
			m.tag(`<tr data-%="%" class="chosen" aria-current="true">`, kind, keys[i])
		} else {
			m.tag(`<tr data-%="%">`, kind, keys[i])
		}
		m.tag(`<th scope="row" class="%-name">%</th>`, kind, row[0])
		for _, c := range row[1:] {
			if placeholder {
				c = "…"
			}
			m.tag(`<td>%</td>`, c)
		}
		m.Raw(`</tr>`)
	}
	m.close("tbody")
	m.close("table")
	WriteTableWrap(out, label, m.String())
}

// WriteTableHead writes a table's start tag, its caption, its header row
// and the start of its body.
func WriteTableHead(m *Markup, tableID, class, caption string, header []string) {
	m.open("table", "id", tableID, "class", class)
	m.Elem("caption", caption)
	m.Raw("<thead><tr>")
	for _, c := range header {
		m.Elem("th", "scope", "col", c)
	}
	m.Raw("</tr></thead><tbody>")
}

// WritePolicyTable writes the comparison of every policy for c;
// placeholder rows show only the names.
func WritePolicyTable(m *Markup, tableID string, rows []report.Row, c sim.Config, placeholder bool) {
	keys := make([]string, len(rows))
	for i, r := range rows {
		keys[i] = r.Policy.String()
	}
	WriteTable(m, tableID, "compare", report.ComparisonCaption(c),
		"Comparison of every policy", "policy", report.ComparisonTable(rows), keys, c.Policy.String(), placeholder)
}

// WriteSeedBars writes every policy's mean shares over seeds as stacked
// bars (SeedsView's), each with a line from the lowest to the highest
// seed's answered share and, where the inputs are the post's, a tall tick
// at the post's own figure.
func WriteSeedBars(m *Markup, v report.SeedsView, chosen sim.Policy) {
	m.open("ul", "class", "policy-bars")
	for _, b := range v.Bars {
		bar := strings.TrimSuffix(ShareBarHTML(b.Answered, b.Refused, b.TimedOut), "</svg>")
		if b.People {
			bar += `<line class="seed-range" x1="` + num(b.Low*100) + `" x2="` + num(b.High*100) + `" y1="5" y2="5"></line>`
		}
		if b.HasPost {
			x := num(b.Post * 100)
			bar += `<line class="post-mark" x1="` + x + `" x2="` + x + `" y1="-2" y2="10"></line>`
		}
		WriteShareRow(m, "data-policy", b.Policy.String(), b.Policy.Title(), b.Policy == chosen, bar+"</svg>", b.Text)
	}
	m.close("ul")
}

// PolicyKeys are the policies' keys, in the order of sim.Policies: the
// rows of the seeds' table (WriteTable's keys).
