package sim

import (
	"math"

	"github.com/shedsim/shedsim/sim/internal/limits"
)

// Service times from a latency histogram (MODEL.md rule 3b): Prometheus's
// buckets, each an upper bound and the observations at or below it, read
// as a distribution the way Prometheus's histogram_quantile reads them
// (promql/quantile.go, bucketQuantile; the function's documentation):
// uniform within a bucket ("assuming a linear distribution within a
// bucket"), the lowest bucket from 0, and a quantile in the +Inf bucket
// the last finite bound. A draw is histogram_quantile at a uniform
// quantile, so the sampler and the dashboard's p50 and p99 agree.

// empirical is a histogram ready to draw from: cum[i] the observations at
// or below bucket i's bound, each bucket from lo[i] for width[i] ms; a
// last bucket of width 0 at the last finite bound stands for +Inf's.
type empirical struct {
	cum, lo, width []float64
	total          float64
}

func newEmpirical(bs []Bucket) empirical {
	var e empirical
	prev := 0.0
	for _, b := range bs {
		le := b.LeMS
		if math.IsInf(le, 1) {
			le = prev // the +Inf bucket's samples are the last finite bound
		}
		e.cum = append(e.cum, b.Count)
		e.lo = append(e.lo, prev)
		e.width = append(e.width, le-prev)
		prev = le
	}
	e.total = bs[len(bs)-1].Count
	return e
}

// quantile is histogram_quantile(q) of the buckets, ms, for q in [0, 1).
// The bucket holding rank q x total is the first whose cumulative count is
// above it (so an empty bucket never holds it), and the rank is placed in
// it linearly. Each product is rounded on its own (no fused multiply-add),
// so every platform draws the same bits.
func (e *empirical) quantile(q float64) float64 {
	rank := float64(q * e.total)
	lo, hi := 0, len(e.cum)-1
	for lo < hi { // the first i with cum[i] > rank
		mid := int(uint(lo+hi) >> 1)
		if e.cum[mid] > rank {
			hi = mid
		} else {
			lo = mid + 1
		}
	}
	i := lo
	below := 0.0
	if i > 0 {
		below = e.cum[i-1]
	}
	in := e.cum[i] - below
	if in <= 0 || e.width[i] == 0 {
		return e.lo[i] + e.width[i]
	}
	return e.lo[i] + float64(e.width[i]*((rank-below)/in))
}

// mean is the distribution's mean, ms: each bucket's midpoint by its
// share, the +Inf bucket's at the last finite bound.
func (e *empirical) mean() float64 {
	sum, below := 0.0, 0.0
	for i, c := range e.cum {
		mid := e.lo[i] + e.width[i]/2
		sum += float64((c - below) * mid)
		below = c
	}
	return sum / e.total
}

// histogram is c's service histogram ready to draw from, and false when c
// has none or it does not read.
func (c Config) histogram() (empirical, bool) {
	if c.ServiceHistogram == "" {
		return empirical{}, false
	}
	bs, err := ParseBuckets(c.ServiceHistogram)
	if err != nil {
		return empirical{}, false
	}
	return newEmpirical(bs), true
}

// HistogramMeanMS is the mean of c's service histogram, ms (rule 3b), and
// false when c has none that reads.
func (c Config) HistogramMeanMS() (float64, bool) {
	h, ok := c.histogram()
	if !ok {
		return 0, false
	}
	return h.mean(), true
}

// histogramUnit is the draw of a service time of mean 1 from h (rule 3b):
// one uniform from the service stream, at which h's quantile is read,
// over h's mean.
func histogramUnit(h empirical) func(*stream) float64 {
	m := h.mean()
	return func(s *stream) float64 { return h.quantile(s.Float64()) / m }
}

// busyAt is how busy the workers would be, a share, if the traffic were
// rps a second and each request took the histogram's mean: rps x mean /
// workers.
func (c Config) busyAt(rps, meanMS float64) float64 {
	return float64(rps*meanMS) / 1000 / float64(c.Workers)
}

// MaxHonestBusy is how busy the workers may be, at the traffic a latency
// histogram was measured under, before the histogram is likely to hold
// queueing as well as service (HistogramWarning).
const MaxHonestBusy = 0.7

// HistogramWarning says, for a service histogram, whether the traffic it
// was measured under kept the workers busy enough that the latencies hold
// waiting, not only service: over MaxHonestBusy at the measured traffic
// (the rate table's mean over its rows, unscaled, or normal_rps without
// one), with the histogram's mean taken as the service time. It is "" when
// they were not, or when c has no histogram.
func (c Config) HistogramWarning() string {
	m, ok := c.HistogramMeanMS()
	if !ok || c.Workers < 1 {
		return ""
	}
	rps, what := c.NormalRPS, "the normal traffic of "+limits.Num(c.NormalRPS)+"/s ({normal_rps})"
	if rows, ok := c.rateRows(); ok {
		rps, what = meanRate(rows), "the rate table's mean, "+limits.Num(math.Round(meanRate(rows)*10)/10)+"/s,"
	}
	busy := c.busyAt(rps, m)
	if busy <= MaxHonestBusy {
		return ""
	}
	return "at " + what + " the histogram's mean of " + limits.Num(math.Round(m*10)/10) + " ms keeps " + limits.Count(int64(c.Workers)) +
		" workers " + limits.Num(math.Round(busy*100)) + "% busy, over " + limits.Num(MaxHonestBusy*100) +
		"%: at that load requests queue, so a latency histogram measured then holds waiting as well as service. " +
		"Taken as service times it overstates them, and the run overstates the overload: export the histogram from a quieter time, or of the handler's own time"
}

// meanRate is the time-weighted mean of a rate table's rows over its span
// (a table of one row: its rate).
func meanRate(rows []RateRow) float64 {
	if len(rows) == 1 {
		return rows[0].RPS
	}
	sum := 0.0
	for i := range len(rows) - 1 {
		sum += float64((rows[i+1].TimeS - rows[i].TimeS) * rows[i].RPS)
	}
	return sum / rows[len(rows)-1].TimeS
}
