package sweep

import (
	"math"

	"github.com/shedsim/shedsim/sim"
)

// Stat is a mean and the spread between seeds: the sample standard
// deviation, over the N seeds that had the measure (a share of a sale
// nobody arrived in, or the wait of nobody answered, is left out).
type Stat struct {
	Mean float64 `json:"mean"`
	SD   float64 `json:"sd"`
	N    int     `json:"n"`
}

// Spread is one measure over seeds, folded in seed order so that the
// same seeds give the same bits on every platform: its mean, its sample
// standard deviation between seeds and its lowest and highest seed, in the
// measure's own unit (sim/report's Spread, which `shedsim --seeds` and the
// page's seeds control print).
type Spread struct {
	// N is how many seeds the measure was taken in.
	N                    int
	sum, sumSq, min, max float64
}

// Add takes the measure of one more seed.
func (s *Spread) Add(x float64) {
	if s.N == 0 || x < s.min {
		s.min = x
	}
	if s.N == 0 || x > s.max {
		s.max = x
	}
	s.sum += x
	s.sumSq += float64(x * x)
	s.N++
}

// Min is the lowest seed's measure (0 for none).
func (s Spread) Min() float64 { return s.min }

// Max is the highest seed's measure (0 for none).
func (s Spread) Max() float64 { return s.max }

// Mean is the mean over the seeds (NaN for none).
func (s Spread) Mean() float64 { return s.sum / float64(s.N) }

// SD is the sample standard deviation between the seeds (0 for fewer than
// two).
func (s Spread) SD() float64 {
	if s.N < 2 {
		return 0
	}
	n := float64(s.N)
	return math.Sqrt(max((s.sumSq-float64(s.sum*s.sum)/n)/(n-1), 0))
}

// Stat is the Spread as a sweep reports it: zero for no seeds.
func (s Spread) Stat() Stat {
	if s.N == 0 {
		return Stat{}
	}
	return Stat{Mean: s.Mean(), SD: s.SD(), N: s.N}
}

// Recoveries counts seeds by how each run ended after the sale
// (sim.Recovery).
type Recoveries struct {
	Normal     int `json:"normal"`
	Backlog    int `json:"backlog"`
	Stuck      int `json:"stuck"`
	Overloaded int `json:"overloaded"`
	Throttled  int `json:"throttled"`
	Unmeasured int `json:"unmeasured"`
}

func (r *Recoveries) add(x sim.Recovery) {
	switch x {
	case sim.Normal:
		r.Normal++
	case sim.Backlog:
		r.Backlog++
	case sim.Stuck:
		r.Stuck++
	case sim.Overloaded:
		r.Overloaded++
	case sim.Throttled:
		r.Throttled++
	case sim.Unmeasured:
		r.Unmeasured++
	default:
		panic("sweep: a recovery this package does not count: " + string(x))
	}
}

// Rest is the seeds neither back, nor in a backlog, nor stuck: overloaded,
// throttled or unmeasured.
func (r Recoveries) Rest() int { return r.Overloaded + r.Throttled + r.Unmeasured }

// Outcome is what one setting measured over the seeds: the sale's shares,
// the p99 wait, and how many seeds got back to normal.
type Outcome struct {
	// Seeds is how many seeds ran.
	Seeds int `json:"seeds"`
	// Answered, Refused and TimedOut are the sale's shares (fractions of
	// its people), over the seeds in which anyone arrived during the sale.
	Answered Stat `json:"answered"`
	Refused  Stat `json:"refused"`
	TimedOut Stat `json:"timed_out"`
	// P99WaitMS is the p99 wait of the sale's answered people, the time
	// to an answer (sim.Sale.P99WaitMS, service included), in
	// milliseconds, over the seeds in which anyone was answered.
	P99WaitMS Stat `json:"p99_wait_ms"`
	// P99QueueWaitMS is the p99 wait in the queue of the sale's attempts
	// taken into service (sim.Sale.P99QueueWaitMS, service left out: the
	// planner's p99 wait), in milliseconds, over the seeds in which any
	// sale attempt was served.
	P99QueueWaitMS Stat `json:"p99_queue_wait_ms"`
	// Waited is the share of the sale's attempts taken into service that
	// waited in the queue at all (sim.Sale.WaitedShare: Erlang C's P(wait)
	// where its assumptions hold), over the seeds in which anyone in the
	// sale was answered (so that some sale attempt was served).
	Waited Stat `json:"waited"`
	// Recovery counts the seeds by how each run ended after the sale.
	Recovery Recoveries `json:"recovery"`
}

// Back is how many seeds got back to normal.
func (o Outcome) Back() int { return o.Recovery.Normal }

// BackShare is the share of seeds back to normal (0 for no seeds).
func (o Outcome) BackShare() float64 {
	if o.Seeds == 0 {
		return 0
	}
	return float64(o.Recovery.Normal) / float64(o.Seeds)
}

// MostlyBack reports whether most seeds (over half) got back to normal.
func (o Outcome) MostlyBack() bool { return 2*o.Recovery.Normal > o.Seeds }

// tally folds the runs of one setting into an Outcome, in seed order.
type tally struct {
	seeds                                    int
	answered, refused, timedOut, p99, waited Spread
	p99Queue                                 Spread
	recovery                                 Recoveries
}

func (t *tally) add(r sim.Result) {
	t.seeds++
	if r.Sale.People > 0 {
		t.answered.Add(r.Sale.AnsweredShare)
		t.refused.Add(r.Sale.RefusedShare)
		t.timedOut.Add(r.Sale.TimedOutShare)
	}
	// WaitedShare is 0 both when nobody waited and when no sale attempt
	// was taken into service; an answer means one was, so that its 0 is
	// nobody waiting.
	if r.Sale.Answered > 0 {
		t.waited.Add(r.Sale.WaitedShare)
	}
	if r.Sale.P99WaitMS != nil {
		t.p99.Add(*r.Sale.P99WaitMS)
	}
	if r.Sale.P99QueueWaitMS != nil {
		t.p99Queue.Add(*r.Sale.P99QueueWaitMS)
	}
	t.recovery.add(r.Recovery)
}

func (t tally) outcome() Outcome {
	return Outcome{
		Seeds:          t.seeds,
		Answered:       t.answered.Stat(),
		Refused:        t.refused.Stat(),
		TimedOut:       t.timedOut.Stat(),
		P99WaitMS:      t.p99.Stat(),
		P99QueueWaitMS: t.p99Queue.Stat(),
		Waited:         t.waited.Stat(),
		Recovery:       t.recovery,
	}
}
