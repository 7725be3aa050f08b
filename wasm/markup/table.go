package markup

import (
	"math"
	"strconv"

	"github.com/shedsim/shedsim/sim"
	"github.com/shedsim/shedsim/sim/report"
)

// This file writes a table's field (sim.Table: the rate over time, the
// latency histogram): a <textarea> to paste a CSV into or drop a file on,
// a line that says what it read, and a small chart of it, drawn before
// the run: the rate over the run's time with the sale's window shaded, or
// the histogram's buckets as densities.

// tableHelp is what an empty table's field says.
var tableHelp = map[string]string{
	"arrivals":          "Paste a CSV of time_s,rps (a dashboard's export), or drop the file here: it replaces the normal and sale rates.",
	"service_histogram": "Paste Prometheus buckets as le,count (seconds, or a le_ms column), or drop the file here; set Service times to From a histogram.",
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
			report.Number(hi, 2) + "/s; the sale's window " + report.Seconds(c.SaleStartS) + " to " + report.Seconds(c.SaleEndS()) + ", " + how + "."
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
	}
	return ""
}

// WriteTablePreview writes the chart of key's table in c, before the run
// (nothing when it is empty or does not read): the rate, scaled and
// shifted, over the run's time, the sale's window shaded; or the
// histogram's buckets, each a bar as tall as its density, the +Inf
// bucket's share at the last finite bound.
func WriteTablePreview(m *Markup, key string, c sim.Config) {
	c = c.Resolved()
	const w, ht = 300.0, 48.0
	var path string
	var label string
	switch key {
	case "arrivals":
		rows, err := sim.ParseRates(c.Arrivals)
		if c.Arrivals == "" || err != nil {
			return
		}
		scale := 1.0
		if c.ArrivalsScale > 0 {
			scale = c.ArrivalsScale
		}
		top := 0.0
		for _, r := range rows {
			top = max(top, r.RPS*scale)
		}
		if top == 0 {
			top = 1
		}
		x := func(t float64) float64 { return math.Round(min(max(t, 0), c.DurationS)/c.DurationS*w*10) / 10 }
		y := func(r float64) float64 { return math.Round((ht-r/top*ht)*10) / 10 }
		m.Raw(`<svg viewBox="0 0 300 48" preserveAspectRatio="none" role="img" aria-label="`)
		label = "The rate over the run, up to " + report.Number(top, 2) + "/s, the sale shaded"
		m.Text(label)
		m.Raw(`"><rect class="sale" x="`)
		m.Raw(fnum(x(c.SaleStartS)) + `" y="0" width="` + fnum(x(c.SaleEndS())-x(c.SaleStartS)) + `" height="48"></rect>`)
		prev := rows[0].RPS * scale
		path = "M0," + fnum(y(prev))
		for _, r := range rows[1:] {
			t := r.TimeS + c.ArrivalsShiftS
			if t <= 0 || t >= c.DurationS {
				if t <= 0 {
					prev = r.RPS * scale
					path = "M0," + fnum(y(prev))
				}
				continue
			}
			path += "H" + fnum(x(t)) + "V" + fnum(y(r.RPS*scale))
			prev = r.RPS * scale
		}
		path += "H300"
	case "service_histogram":
		bs, err := sim.ParseBuckets(c.ServiceHistogram)
		if c.ServiceHistogram == "" || err != nil {
			return
		}
		last := 0.0
		for _, b := range bs {
			if !math.IsInf(b.LeMS, 1) {
				last = b.LeMS
			}
		}
		total := bs[len(bs)-1].Count
		dens, top := make([]float64, len(bs)), 0.0
		lo, below := 0.0, 0.0
		for i, b := range bs {
			if math.IsInf(b.LeMS, 1) {
				break
			}
			dens[i] = (b.Count - below) / total / (b.LeMS - lo)
			top = max(top, dens[i])
			lo, below = b.LeMS, b.Count
		}
		m.Raw(`<svg viewBox="0 0 300 48" preserveAspectRatio="none" role="img" aria-label="`)
		label = "The histogram's buckets to " + report.Duration(last) + ", each as tall as its share per ms"
		m.Text(label)
		m.Raw(`">`)
		lo = 0
		path = "M0,48"
		for i, b := range bs {
			if math.IsInf(b.LeMS, 1) {
				break
			}
			h := math.Round(dens[i]/top*ht*10) / 10
			path += "V" + fnum(ht-h) + "H" + fnum(math.Round(b.LeMS/last*w*10)/10)
			lo = b.LeMS
		}
		path += "V48Z"
	default:
		return
	}
	m.Raw(`<path class="line" d="`)
	m.Raw(path)
	m.Raw(`"></path></svg>`)
}

func fnum(x float64) string { return strconv.FormatFloat(x, 'f', -1, 64) }
