package markup

import (
	"math"
	"strconv"

	"github.com/shedsim/shedsim/sim"
	"github.com/shedsim/shedsim/sim/report"
)

// This file writes a table's field (sim.Table: the rate over time, the
// latency histogram, the hops of a chain): a <textarea> to paste a CSV
// (or type the hops) into or drop a file on, a line that says what it
// read, and a small chart of it, drawn before the run: the rate over the
// run's time with the sale's window shaded, or the histogram's buckets as
// densities; for the hops, a list of them in words.

// tableHelp is what an empty table's field says.
var tableHelp = map[string]string{
	"arrivals":          "Paste a CSV of time_s,rps (a dashboard's export), or drop the file here: it replaces the normal and sale rates.",
	"service_histogram": "Paste Prometheus buckets as le,count (seconds, or a le_ms column), or drop the file here; set Service times to From a histogram.",
	"hops":              "Type the services this one calls, a hop a line, such as payments: workers=16 service_ms=30 timeout_ms=1000 retries=1 (its proxy's retries), or drop a file here.",
}

// writeTableField writes the textarea, the hint and the preview of s,
// whose label is open.
func writeTableField(m *Markup, prefix string, s FieldSpec, val, hint string) {
	id := prefix + "in-" + s.Key
	if s.Unit != "" {
		m.Raw(` <span class="unit">`)
		m.Text(s.Unit)
		m.Raw(`</span>`)
	}
	m.Raw(`</label><textarea id="`)
	m.Text(id)
	m.Raw(`" name="`)
	m.Text(s.Key)
	m.Raw(`" class="table" rows="3" autocomplete="off" spellcheck="false" wrap="off" aria-describedby="`)
	m.Text(prefix + "hint-" + s.Key)
	m.Raw(`">`)
	m.Text(val)
	m.Raw(`</textarea><p class="field-hint" id="`)
	m.Text(prefix + "hint-" + s.Key)
	m.Raw(`">`)
	m.Text(hint)
	m.Raw(`</p><div class="table-preview" id="`)
	m.Text(prefix + "preview-" + s.Key)
	m.Raw(`"></div>`)
}

// TableHint is what a table's field says under it for c: what it read
// (its rows, span and rates, the sale's window and how it was found; the
// histogram's median, mean, p99, capacity and warning), or how to fill
// it when it is empty. A table that does not read says nothing here: its
// error is the field's message.
func TableHint(key string, c sim.Config) string {
	c = c.Resolved()
	switch key {
	case "arrivals":
		if c.Arrivals == "" {
			return tableHelp[key]
		}
		rows, err := sim.ParseRates(c.Arrivals)
		if err != nil {
			return ""
		}
		lo, hi := math.Inf(1), 0.0
		for _, r := range rows {
			lo, hi = min(lo, r.RPS), max(hi, r.RPS)
		}
		how := "set by its start and length"
		if c.SaleThresholdRPS > 0 {
			how = "found above " + report.Number(c.SaleThresholdRPS, 2) + "/s"
		}
		return strconv.Itoa(len(rows)) + " rows over " + report.Seconds(rows[len(rows)-1].TimeS) + ", " + report.Number(lo, 2) + " to " +
			report.Number(hi, 2) + "/s; the sale's window " + report.Seconds(c.SaleStartS) + " to " + report.Seconds(c.SaleEndS()) + ", " + how +
			". It gives every rate: the traffic's fields it sets are read-only while it is here."
	case "service_histogram":
		if c.ServiceHistogram == "" {
			return tableHelp[key]
		}
		if c.Service != sim.HistogramService {
			return ""
		}
		out := report.ServiceNumbers(c)
		if w := c.HistogramWarning(); w != "" {
			out += ". Warning: " + sim.NewFieldError(key, w).Msg
		}
		return out
	case "hops":
		if c.Hops == "" {
			return tableHelp[key]
		}
		hops, err := sim.ParseHops(c.Hops)
		if err != nil || len(hops) == 0 {
			return ""
		}
		names := report.EntryName
		for _, h := range hops {
			names += ", then " + h.Name
		}
		return "The calls go " + names + "; the results draw the chain under the chart."
	}
	return ""
}

// WriteTablePreview writes the chart of key's table in c, before the run
// (nothing when it is empty or does not read), 300 by 48 units: the rate,
// scaled and shifted, as a step line over the run's time, the sale's
// window shaded; or the histogram's finite buckets as steps, each as tall
// as its density (its share per ms). The hops are a list instead, a hop
// an item in words (report.HopSummary).
func WriteTablePreview(m *Markup, key string, c sim.Config) {
	c = c.Resolved()
	if key == "hops" {
		hops, err := sim.ParseHops(c.Hops)
		if err != nil || len(hops) == 0 {
			return
		}
		m.Raw(`<ol class="hops-preview">`)
		for _, h := range hops {
			m.Elem("li", report.HopSummary(h))
		}
		m.Raw(`</ol>`)
		return
	}
	// steps: from x[i-1] to x[i] at height y[i], both from 0 to 1
	var x, y []float64
	shade := [2]float64{}
	switch key {
	case "arrivals":
		rows, err := sim.ParseRates(c.Arrivals)
		if err != nil {
			return
		}
		for _, r := range rows {
			t := min(max(r.TimeS+c.ArrivalsShiftS, 0), c.DurationS) / c.DurationS
			if len(x) > 0 {
				x[len(x)-1] = t // the previous rate holds until this row
			}
			x, y = append(x, 1), append(y, r.RPS)
		}
		shade = [2]float64{c.SaleStartS / c.DurationS, c.SaleEndS() / c.DurationS}
	case "service_histogram":
		bs, err := sim.ParseBuckets(c.ServiceHistogram)
		if err != nil {
			return
		}
		lo, below := 0.0, 0.0
		for _, b := range bs {
			if math.IsInf(b.LeMS, 1) {
				break
			}
			x, y = append(x, b.LeMS), append(y, (b.Count-below)/(b.LeMS-lo))
			lo, below = b.LeMS, b.Count
		}
		for i := range x {
			x[i] /= lo
		}
	default:
		return
	}
	top := 0.0
	for _, v := range y {
		top = max(top, v)
	}
	if top == 0 {
		top = 1
	}
	n := func(v float64) string { return strconv.FormatFloat(math.Round(v*10)/10, 'f', -1, 64) }
	m.Raw(`<svg viewBox="0 0 300 48" preserveAspectRatio="none" aria-hidden="true"><rect class="sale" x="` + n(shade[0]*300) + `" y="0" width="` +
		n((shade[1]-shade[0])*300) + `" height="48"></rect><path class="line" d="M0,48`)
	for i := range x {
		m.Raw("V" + n(48-y[i]/top*48) + "H" + n(x[i]*300))
	}
	m.Raw(`V48"></path></svg>`)
}
