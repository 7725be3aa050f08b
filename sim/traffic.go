package sim

import (
	"math"

	"github.com/shedsim/shedsim/sim/internal/limits"
)

// Your own traffic (MODEL.md rules 2b and 3b): a rate over time replayed
// from a table (Config.Arrivals) in place of the normal and sale rates,
// and service times drawn from a latency histogram
// (Config.ServiceHistogram). Both are text, read by ParseRates and
// ParseBuckets; a Config with them runs as one whose derived fields are
// filled in from them (Resolved), so that everything that reads the
// normal and sale rates, the sale's window and the mean service time (the
// fluid view, the automatic bound, the advice, the reports) reads the
// table's and the histogram's.

// rateStretch is a span of constant rate of a rate table: from start ns on,
// new people arrive with a mean gap of gap ns (0 for none).
type rateStretch struct {
	start int64
	gap   float64
}

// scale is the factor the table's rates are multiplied by: ArrivalsScale,
// or 1 for 0.
func (c Config) scale() float64 {
	if c.ArrivalsScale == 0 {
		return 1
	}
	return c.ArrivalsScale
}

// rateStretches is c's rate table as the engine replays it (rule 2b):
// each row's rate times the scale, from its time plus the shift, rounded
// to the ns; the first row's rate before it and the last's after it; rows
// that follow one of the same rate merged into it, so that the process
// is drawn as one of constant rate across them (rule 2's memorylessness
// makes the two the same process; merged, it is the same draws too).
// Rows before the run's start are cut to the one in force at 0.
func rateStretches(rows []RateRow, scale, shiftS float64) []rateStretch {
	var out []rateStretch
	for _, r := range rows {
		start := int64(math.Round((r.TimeS + shiftS) * 1e9))
		gap := 0.0
		if rps := float64(r.RPS * scale); rps > 0 {
			gap = 1e9 / rps
		}
		if len(out) == 0 {
			start = 0 // the first row's rate holds from the run's start
		} else if start <= 0 {
			out = out[:0] // a row in force at 0 replaces those before it
			start = 0
		}
		if len(out) > 0 && out[len(out)-1].gap == gap {
			continue
		}
		out = append(out, rateStretch{start: start, gap: gap})
	}
	return out
}

// rateRows is c's rate table, read, and false when c has none or it does
// not read (Validate says why). Without one it costs a comparison: the
// default run reads nothing.
func (c Config) rateRows() ([]RateRow, bool) {
	if c.Arrivals == "" {
		return nil, false
	}
	rows, err := ParseRates(c.Arrivals)
	return rows, err == nil
}

// tableRateAt is rateAt for a rate table: the gap of the stretch that
// holds t, and where the next starts.
func (e *engine) tableRateAt(t int64) (gap float64, boundary int64) {
	s := e.rates
	lo, hi := 0, len(s)-1
	for lo < hi { // the last stretch starting at or before t
		mid := int(uint(lo+hi+1) >> 1)
		if s[mid].start <= t {
			lo = mid
		} else {
			hi = mid - 1
		}
	}
	if lo+1 < len(s) {
		return s[lo].gap, s[lo+1].start
	}
	return s[lo].gap, math.MaxInt64
}

// tableRPS is the arrival rate of rows, c's table, scaled and shifted, at
// t seconds of the run, per second: the first row's before it.
func (c Config) tableRPS(rows []RateRow, t float64) float64 {
	i := 0
	for k, r := range rows {
		if r.TimeS+c.ArrivalsShiftS <= t {
			i = k
		}
	}
	return float64(rows[i].RPS * c.scale())
}

// saleSpan is the window of the sale's people for a rate table with a
// threshold (rule 2b): from the first time in the run the table's rate, as
// written (before ArrivalsScale, so that a sweep of the scale measures the
// same people), is above SaleThresholdRPS to the first time after it is
// not, s; ok false when it never is, and end the run's end when it stays
// above.
func (c Config) saleSpan(rows []RateRow) (start, end float64, ok bool) {
	in := false
	for i, r := range rows {
		t := max(0, r.TimeS+c.ArrivalsShiftS)
		if i+1 < len(rows) && rows[i+1].TimeS+c.ArrivalsShiftS <= 0 {
			continue // replaced before the run starts
		}
		if t >= c.DurationS {
			break
		}
		above := r.RPS > c.SaleThresholdRPS
		switch {
		case above && !in:
			start, in = t, true
		case !above && in:
			return start, t, true
		}
	}
	return start, c.DurationS, in
}

// Resolved returns c with the fields its tables replace filled in from
// them (rules 2b and 3b): with a rate table, the sale's window (found
// from SaleThresholdRPS when it is set), SaleRPS the highest rate in it
// and NormalRPS the rate as it ends, which the fluid view (rule 18)
// compares with capacity; with a service histogram, ServiceMS its mean.
// A Config with neither, or one whose tables do not read (Validate says
// why), is returned as it is. Run runs the Resolved Config, and its
// Result holds it.
func (c Config) Resolved() Config {
	if c.ServiceHistogram != "" && c.Service == HistogramService {
		if m, ok := c.HistogramMeanMS(); ok {
			c.ServiceMS = m
		}
	}
	if c.Arrivals == "" {
		return c
	}
	rows, err := ParseRates(c.Arrivals)
	if err != nil {
		return c
	}
	if c.SaleThresholdRPS > 0 {
		start, end, ok := c.saleSpan(rows)
		if !ok {
			return c
		}
		c.SaleStartS, c.SaleS = start, end-start
	}
	end := c.SaleStartS + c.SaleS
	c.NormalRPS = c.tableRPS(rows, end)
	peak := c.tableRPS(rows, c.SaleStartS)
	for _, r := range rows {
		if t := r.TimeS + c.ArrivalsShiftS; t > c.SaleStartS && t < end {
			peak = max(peak, float64(r.RPS*c.scale()))
		}
	}
	c.SaleRPS = peak
	if c.SaleS == 0 {
		c.SaleRPS = c.NormalRPS
	}
	return c
}

// tablePeople is the expected number of new people over the run with a
// rate table: the integral of its scaled rate over [0, DurationS).
func (c Config) tablePeople(rows []RateRow) float64 {
	s := rateStretches(rows, c.scale(), c.ArrivalsShiftS)
	end := c.DurationS * 1e9
	sum := 0.0
	for i, st := range s {
		from := float64(st.start)
		to := end
		if i+1 < len(s) {
			to = min(end, float64(s[i+1].start))
		}
		if to > from && st.gap > 0 {
			sum += (to - from) / st.gap
		}
	}
	return sum
}

// validateTables checks the rate table and the service histogram and the
// settings that go with them, adding to errs (rules 2b and 3b).
func (c Config) validateTables(bad func(field, msg string), real func(string, float64, float64, float64, string, bool) bool) {
	if c.Arrivals == "" {
		for _, f := range []struct {
			key string
			x   float64
		}{{"arrivals_scale", c.ArrivalsScale}, {"arrivals_shift_s", c.ArrivalsShiftS}, {"sale_threshold_rps", c.SaleThresholdRPS}} {
			if f.x != 0 {
				bad(f.key, limits.Num(f.x)+" applies only to a rate table: give {arrivals}, or leave out {"+f.key+"}")
			}
		}
	} else if rows, err := ParseRates(c.Arrivals); err != nil {
		bad("arrivals", err.Error())
	} else {
		scaleOK := c.ArrivalsScale == 0 || real("arrivals_scale", c.ArrivalsScale, 0.01, 100, " times (0 for 1)", false)
		real("arrivals_shift_s", c.ArrivalsShiftS, -maxDuration, maxDuration, " s", false)
		real("sale_threshold_rps", c.SaleThresholdRPS, 0, maxRPS, " per second (0: the sale is {sale_start_s} and {sale_s})", false)
		if c.SaleRampS != 0 || c.SaleWaves != 0 || c.SaleEveryS != 0 {
			field := "sale_ramp_s"
			if c.SaleRampS == 0 {
				field = "sale_waves"
			}
			bad(field, "shapes the sale's rate, but with {arrivals} the table gives every rate: leave out {"+field+"}, and write the shape in the table")
		}
		if scaleOK {
			peak := 0.0
			for _, r := range rows {
				peak = max(peak, float64(r.RPS*c.scale()))
			}
			if peak > maxRPS {
				bad("arrivals_scale", "makes the table's highest rate "+limits.Num(peak)+" a second, over "+limits.Count(maxRPS)+": use a smaller scale")
			}
			if c.SaleThresholdRPS > 0 && c.DurationS >= 10 && c.DurationS <= maxDuration {
				start, end, ok := c.saleSpan(rows)
				switch {
				case !ok:
					bad("sale_threshold_rps", "no rate of the table in the run is above "+limits.Num(c.SaleThresholdRPS)+
						" a second (the threshold is of the table's rates as written, before {arrivals_scale}): lower it, or set the sale's window with {sale_start_s} and {sale_s} instead")
				case end+10 > c.DurationS:
					bad("sale_threshold_rps", "the table's rate stays above "+limits.Num(c.SaleThresholdRPS)+" a second from "+limits.Num(start)+
						" s to "+limits.Num(end)+" s, leaving no 10 s window after it to show recovery: raise it, or make {duration_s} longer")
				}
			}
		}
	}
	switch {
	case c.ServiceHistogram != "" && c.Service != HistogramService:
		bad("service_histogram", "needs {service=histogram} (the service is "+c.Service.String()+"): set it, or leave out {service_histogram}")
	case c.ServiceHistogram == "" && c.Service == HistogramService:
		bad("service_histogram", "a histogram service needs its buckets: give {service_histogram} (le,count rows, as Prometheus's _bucket series)")
	case c.ServiceHistogram != "":
		if bs, err := ParseBuckets(c.ServiceHistogram); err != nil {
			bad("service_histogram", err.Error())
		} else if h := newEmpirical(bs); h.mean() < minService || h.mean() > maxMS {
			bad("service_histogram", "its mean is "+limits.Num(h.mean())+" ms, out of the service time's range: "+limits.Num(minService)+" to "+limits.Num(maxMS)+" ms (is the bound in seconds? then name the column le, not le_ms)")
		}
	}
}
