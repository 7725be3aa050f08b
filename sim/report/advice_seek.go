package report

import (
	"strconv"

	"github.com/shedsim/shedsim/sim"
	"github.com/shedsim/shedsim/sim/bisect"
)

// AdviceSeeds is how many seeds each of the advice's goal-seeks runs every
// setting at, from the reader's own seed: ten, as the sweeps do.
// Fewer are not enough at the edge of keeping up: against the post's
// 150/s, 12 workers (a capacity of exactly 150/s) answer 100.0% of the sale
// over seeds 1 to 5 but 96.0% over seeds 1 to 10, so that five seeds would
// advise a setting that misses one sale in four; more cost runs the page
// waits for.
const AdviceSeeds = 10

// AdviceMaxRuns and AdviceMaxAttempts are the budget of the advice's
// goal-seeks together: the most runs they may make, and the most attempts
// those runs may be expected to send, each seek counted at its worst case
// (sweep.MostProbes settings, each at its range's costlier end) before it
// runs. A seek that does not fit what is left is not made, and its
// question gets the fixed alternative (one run) instead. 160 runs hold
// both seeks at the post's shop with 3 retries (70 and 40 runs at most)
// with room for a wider range of workers; 30,000,000 attempts are about
// 2 s of one native core and 1,150 runs of the post's shop, so that a
// day-long run's advice stays a fixed alternative rather than minutes of
// seeking.
const (
	AdviceMaxRuns     = 160
	AdviceMaxAttempts = 30_000_000
)

// adviceSeek is one of the advice's goal-seeks: the fewest workers that
// keep up, or (retries) the most retries that still get back, over the
// whole values from..to, searched by a bisect.Search, each setting run at
// AdviceSeeds seeds from c.Seed. A zero adviceSeek seeks nothing.
type adviceSeek struct {
	c        sim.Config
	retries  bool
	from, to int
}

// setting is c with the field sought at n.
func (s adviceSeek) setting(n int) sim.Config {
	c := s.c
	if s.retries {
		c.Retries = n
	} else {
		c.Workers = n
	}
	return c
}

// probe is one setting over the seeds: the sale's answered share, over
// the seeds in which anyone arrived during it, as SeedSummary's; and how
// many seeds got back to normal.
type probe struct {
	answered Spread
	back     int
	_        [0]func() // not comparable: no equality to link
}

// misses is what p misses of the seek's goal, "" for nothing: every seed
// back to normal, and for the workers at least 99% of the sale answered.
func (s adviceSeek) misses(p probe) string {
	short := !s.retries && !(p.answered.N > 0 && p.answered.Mean() >= 0.99)
	switch {
	case short && p.back < AdviceSeeds:
		return "under 99% answered, not every seed back"
	case short:
		return "under 99% answered"
	case p.back < AdviceSeeds:
		return "not every seed back"
	}
	return ""
}

// run searches, making each setting's runs with runs, and says what it
// found: value, the answer (found) or the end that should have met the
// goal and missed it; and measured, what it measured either side, over
// the seeds: "over seeds 1 to 10: 13 workers: back in 10 of 10 seeds,
// 100.0% answered; 12 workers: back in 9 of 10 seeds, 95.9% answered
// (under 99% answered, not every seed back)". edge is false when found at
// the range's end, so that nothing beyond it was measured.
func (s adviceSeek) run(runs func([]sim.Config) ([]sim.Result, error)) (value int, found, edge bool, answered float64, measured string, err error) {
	b := bisect.New(s.to-s.from+1, s.retries)
	probed := make([]probe, s.to-s.from+1)
	for i, more := b.Next(); more; i, more = b.Next() {
		cs := make([]sim.Config, AdviceSeeds)
		for j := range cs {
			cs[j] = s.setting(s.from + i)
			cs[j].Seed = s.c.Seed + uint64(j)
		}
		rs, err := runs(cs)
		if err != nil {
			return 0, false, false, 0, "", err
		}
		for _, r := range rs {
			if r.Sale.People > 0 {
				probed[i].answered.Add(r.Sale.AnsweredShare)
			}
			if r.BackToNormalS != nil {
				probed[i].back++
			}
		}
		b.Take(s.misses(probed[i]) == "")
	}
	at, beside, found, _ := b.Edge()
	measured, missed := "over seeds "+strconv.FormatUint(s.c.Seed, 10)+" to "+strconv.FormatUint(s.c.Seed+AdviceSeeds-1, 10)+": ", at
	for _, i := range []int{at, beside} {
		if i < 0 {
			break
		}
		n, what := s.from+i, plural(s.from+i, "worker", "workers")
		if s.retries {
			what = plural(n, "retry", "retries")
		}
		if i == beside {
			measured, missed = measured+"; ", beside
		}
		measured += Count(n) + " " + what + ": back in " + strconv.Itoa(probed[i].back) + " of " + strconv.Itoa(AdviceSeeds) + " seeds, " + Percent(probed[i].answered.Mean()) + " answered"
	}
	return s.from + at, found, beside >= 0, probed[at].answered.Mean(), measured + " (" + s.misses(probed[missed]) + ")", nil
}

// adviceSeeks are the goal-seeks the advice runs for c, whose own run is
// cur, within the budget, in this order: the fewest workers that keep up,
// when capacity is short; the most retries that still get back, when the
// run does not (a zero adviceSeek where it runs none). Which it runs
// depends on c and cur alone.
func adviceSeeks(c sim.Config, cur sim.Result) (workers, retries adviceSeek) {
	if cur.Sale.People == 0 || c.Seed > sim.MaxSeed-AdviceSeeds {
		return
	}
	if k := keepUp(c); c.Workers < k.workers && k.workers <= sim.MaxWorkers {
		workers = adviceSeek{c, false, c.Workers, min(2*k.workers, sim.MaxWorkers)}
	}
	if c.Retries > 0 && notBack(cur) {
		retries = adviceSeek{c, true, 0, c.Retries}
	}
	wr, wa := workers.cost()
	rr, ra := retries.cost()
	if wr > AdviceMaxRuns || wa > AdviceMaxAttempts {
		workers, wr, wa = adviceSeek{}, 0, 0
	}
	if wr+rr > AdviceMaxRuns || wa+ra > AdviceMaxAttempts {
		retries = adviceSeek{}
	}
	return workers, retries
}

// cost is the most runs the seek can make, and the most attempts they can
// be expected to send, each at the costlier of the range's ends
// (ExpectedAttempts is monotone in any one field); over any budget for a
// search that cannot run, none for a zero seek.
func (s adviceSeek) cost() (runs int, attempts float64) {
	if s.to == 0 {
		return 0, 0
	}
	lo, hi := s.setting(s.from), s.setting(s.to)
	if lo.Validate() != nil || hi.Validate() != nil {
		return AdviceMaxRuns + 1, 0
	}
	runs = bisect.MostProbes(s.to-s.from+1) * AdviceSeeds
	return runs, float64(runs) * max(lo.ExpectedAttempts(), hi.ExpectedAttempts())
}

// notBack reports whether r did not get back to normal after the sale,
// where that was measured.
func notBack(r sim.Result) bool { return r.BackToNormalS == nil && r.Recovery != sim.Unmeasured }

// seekAdvice is what the seek s says to change: the fewest workers that
// keep up, beside k, the fewest whose capacity is over the arrivals (the
// seek's range is up to twice that, since at the edge of keeping up, a
// capacity of 151/s against 150/s, the queue a spike leaves drains too
// slowly to get back); or the most retries that still get back. ok is
// false when there is nothing to say: c itself already meets the goal, or
// a run is not made yet.
func seekAdvice(c sim.Config, k need, s adviceSeek, runs func([]sim.Config) ([]sim.Result, error)) (Advice, bool) {
	value, found, edge, answered, measured, err := s.run(runs)
	if err != nil || found && !edge {
		return Advice{}, false
	}
	n := Count(value)
	text := fill("Retry less: the most retries with every seed back to normal after %s is %s, %s.", afterTrigger(c), n, measured)
	if !s.retries {
		capacity, rate := apart(k.capacity, k.rate, 2)
		onPaper := fill("%s whose capacity%s (%s/s) is over %s", Count(k.workers), k.during, capacity, fill(k.words, rate))
		than := "as many as"
		if value < k.workers {
			than = "fewer than"
		} else if value > k.workers {
			than = "more than"
		}
		text = fill("Run %s workers, the fewest that answer at least 99% of %s with every seed back to normal, %s the %s, %s.", n, SalePeople(c), than, onPaper, measured)
		if !found {
			text = fill("More workers alone do not keep up: even %s workers, twice the %s, do not answer at least 99% of %s with every seed back to normal, %s.", n, onPaper, SalePeople(c), measured)
		}
	} else if !found {
		text = fill("Retry less, though it is not enough: even with no retries not every seed gets back to normal after %s, %s.", afterTrigger(c), measured)
	}
	if s.retries && (c.Client == sim.Fixed || c.Client == sim.Backoff) {
		text += " A retry budget stops retries when they stop helping."
	}
	return Advice{Text: text, Config: s.setting(value), Answered: answered}, true
}
