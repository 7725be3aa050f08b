package sim

import (
	"math"

	"github.com/shedsim/shedsim/sim/internal/limits"
)

// Traffic shapes beyond the post's one rectangular sale (MODEL.md rule 25):
// a sale that ramps up and down (SaleRampS), and one that comes back
// (SaleWaves, SaleEveryS). Each wave lasts SaleS; the sale's people are
// those who first arrive during a wave, ramps included, and back to normal
// counts from the last wave's end.

// maxWaves is the most waves a sale may have.
const maxWaves = 1000

// Waves is how many times the sale comes: SaleWaves, or 1 for 0.
func (c Config) Waves() int { return max(c.SaleWaves, 1) }

// WaveStartS is when wave i (from 0) starts, in seconds.
func (c Config) WaveStartS(i int) float64 {
	return c.SaleStartS + float64(float64(i)*c.SaleEveryS)
}

// SaleTimeS is the time the sale's waves last together, in seconds:
// Waves x SaleS.
func (c Config) SaleTimeS() float64 { return float64(c.Waves()) * c.SaleS }

// Shaped reports whether the sale is other than one rectangle.
func (c Config) Shaped() bool { return c.SaleRampS > 0 || c.SaleWaves > 1 }

// InSaleAt reports whether t seconds falls in a wave of the sale.
func (c Config) InSaleAt(t float64) bool {
	if t < c.SaleStartS || t >= c.SaleEndS() {
		return false
	}
	if c.SaleWaves <= 1 {
		return true
	}
	return math.Mod(t-c.SaleStartS, c.SaleEveryS) < c.SaleS
}

// MeasuredAt reports whether a person who first arrives at t seconds is
// one of the sale's people (rule 15, with rules 24 and 25): in
// [PeopleStartS, PeopleEndS), and in a wave of a sale that comes back.
func (c Config) MeasuredAt(t float64) bool {
	if t < c.PeopleStartS() || t >= c.PeopleEndS() {
		return false
	}
	return c.incidentTriggered() || c.InSaleAt(t)
}

// RateAt is the arrival rate of new people at t seconds, per second: the
// normal rate, the sale's in a wave, and in a ramp the straight line
// between them.
func (c Config) RateAt(t float64) float64 {
	if !c.InSaleAt(t) {
		return c.NormalRPS
	}
	into := t - c.SaleStartS
	if c.SaleWaves > 1 {
		into = math.Mod(into, c.SaleEveryS)
	}
	if r := c.SaleRampS; r > 0 {
		edge := min(into, c.SaleS-into) // time from the nearer edge of the wave
		if edge < r {
			return c.NormalRPS + float64((c.SaleRPS-c.NormalRPS)*(edge/r))
		}
	}
	return c.SaleRPS
}

// validateShape checks the shape's fields with Validate's real, adding to
// errs; lenOK says whether SaleS is valid. It reports whether SaleEndS can
// be computed.
func (c Config) validateShape(errs *[]error, real func(string, float64, float64, float64, string, bool) bool, lenOK bool) bool {
	bad := func(field, says string) { *errs = append(*errs, NewFieldError(field, says)) }
	ok := true
	if real("sale_ramp_s", c.SaleRampS, 0, maxDuration, " s (0 for no ramp)", false) && lenOK && c.SaleRampS > 0 && 2*c.SaleRampS > c.SaleS {
		bad("sale_ramp_s", limits.Num(c.SaleRampS)+" s of ramp up and as much down do not fit in a sale of "+limits.Num(c.SaleS)+
			" s: use at most half of {sale_s}, "+limits.Num(c.SaleS/2)+" s")
	}
	if c.SaleWaves < 0 || c.SaleWaves > maxWaves {
		bad("sale_waves", limits.Count(int64(c.SaleWaves))+" is out of range: use a whole number from 0 (one sale) to "+limits.Count(maxWaves))
		ok = false
	}
	everyOK := real("sale_every_s", c.SaleEveryS, 0, maxDuration, " s", false)
	ok = ok && everyOK
	switch {
	case c.SaleWaves > 1 && everyOK && lenOK && (c.SaleEveryS < c.SaleS || c.SaleEveryS == 0):
		bad("sale_every_s", limits.Num(c.SaleEveryS)+" s from one wave's start to the next is shorter than a wave of "+limits.Num(c.SaleS)+
			" s: use at least {sale_s}, "+limits.Num(c.SaleS)+" s")
		ok = false
	case c.SaleWaves <= 1 && c.SaleEveryS != 0:
		bad("sale_every_s", limits.Num(c.SaleEveryS)+" s, but there is one sale: set {sale_waves} to 2 or more, or make this 0")
	case c.SaleWaves > 1 && lenOK && c.SaleS == 0:
		// Waves of no length are no sale at all, yet they would span
		// the sale's measured windows (MeasuredAt) with nobody in it.
		bad("sale_waves", limits.Count(int64(c.SaleWaves))+" waves of a sale that lasts 0 s: give {sale_s} a length, or leave out {sale_waves}")
		ok = false
	}
	if c.Shaped() && c.SaleRPS == c.NormalRPS {
		field := "sale_ramp_s"
		if c.SaleRampS == 0 {
			field = "sale_waves"
		}
		bad(field, "shapes a sale, but {sale_rps} is {normal_rps}, so there is none: give the sale a rate of its own, or leave out {"+field+"}")
	}
	return ok
}

// startShape sets up a shaped sale's arrivals and waves in e.
func (e *engine) startShape() {
	c := e.cfg
	e.saleGap = -1 // scheduleArrival hands the sale's span to scheduleShapedArrival
	e.ramp = int64(math.Round(c.SaleRampS * 1e9))
	e.waveLen = int64(math.Round(c.SaleS * 1e9))
	if c.SaleWaves > 1 {
		e.waveEvery = int64(math.Round(c.SaleEveryS * 1e9))
		e.saleEnd = e.saleStart + int64(c.SaleWaves-1)*e.waveEvery + e.waveLen
	}
}

// scheduleShapedArrival is scheduleArrival for a shaped sale: a Poisson
// process whose rate is piecewise linear (RateAt), by thinning (Lewis and
// Shedler, "Simulation of nonhomogeneous Poisson processes by thinning",
// Naval Research Logistics Quarterly, 1979): within each piece, candidates
// come at the piece's highest rate, and one at time t is kept with
// probability rate(t) / highest. A candidate past the piece's end is drawn
// again from its end, which memorylessness makes exact.
func (e *engine) scheduleShapedArrival(t int64) { e.thin(t, -1) }

// thin is scheduleShapedArrival, where drawn, if not negative, is the
// arrivals stream's next exponential, already drawn (the arrival-order
// path draws it before it knows the rate is shaped).
func (e *engine) thin(t int64, drawn float64) {
	e.arrival = math.MaxInt64
	for t < e.end {
		from, to, lo, hi := e.piece(t)
		top := atLeast(lo, hi) // the higher
		if top > 0 {
			x := drawn
			if x < 0 {
				x = e.arrivals.ExpFloat64()
			}
			drawn = -1
			d := float64(1e9 / top * x)
			if d < float64(to-t) && d < float64(e.end-t) {
				t += int64(d)
				if lo == hi {
					e.arrival = t
					break
				}
				// The rate at t, on the straight line from lo at from to hi at to.
				rate := lo + float64((hi-lo)*(float64(t-from)/float64(to-from)))
				if float64(e.arrivals.Float64()*top) < rate {
					e.arrival = t
					break
				}
				continue
			}
		}
		t = to
	}
	e.arrSeq = nextSeq(&e.arrivalSeq)
}

// piece is the piece of the shaped sale's rate that holds t, ns: its
// start and end, and its rates at them, per second.
func (e *engine) piece(t int64) (from, to int64, lo, hi float64) {
	c := e.cfg
	normal, sale := c.NormalRPS, c.SaleRPS
	if t < e.saleStart {
		return math.MinInt64, e.saleStart, normal, normal
	}
	if t >= e.saleEnd {
		return e.saleEnd, math.MaxInt64, normal, normal
	}
	i := int64(0)
	if e.waveEvery > 0 {
		i = min((t-e.saleStart)/e.waveEvery, int64(c.Waves()-1))
	}
	start := e.saleStart + i*e.waveEvery
	end := start + e.waveLen
	switch {
	case t >= end && e.waveEvery == 0:
		// One sale, whose end rounded to the nanosecond from sale_start_s
		// + sale_s can fall a nanosecond after start + its length: the
		// normal rate up to saleEnd, never a piece that ends before t.
		return end, e.saleEnd, normal, normal
	case t >= end: // between waves
		return end, start + e.waveEvery, normal, normal
	case t < start+e.ramp:
		return start, start + e.ramp, normal, sale
	case t < end-e.ramp:
		return start + e.ramp, end - e.ramp, sale, sale
	}
	return end - e.ramp, end, sale, normal
}
