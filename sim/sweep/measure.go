package sweep

import (
	"errors"
	"math"
	"runtime"

	"github.com/shedsim/shedsim/sim"
	"github.com/shedsim/shedsim/sim/internal/limits"
)

// MaxAttempts is the budget of one request (a sweep, a map or a goal-seek):
// the most attempts all its runs together may be expected to send
// (sim.Config.ExpectedAttempts, summed). It is the command line's budget
// of a whole command (MaxCommandAttempts in tools/shedsim, which --seeds
// holds to; a test there keeps the two equal): 30 times sim.MaxAttempts,
// the budget of one run, about 20 s of running on one of this project's
// cores at 14 million attempts a second; 1,860 default runs are 48
// million. A request over it is refused before anything runs.
const MaxAttempts = 300_000_000

// MaxRuns is the most runs a request may make, whatever they send: a run
// that sends nothing still costs its windows, so the attempts alone do
// not bound a request of many tiny runs. 100,000 runs of a day with
// nobody in it are a few seconds.
const MaxRuns = 100_000

// MaxSeeds is the most seeds a request may run at each setting.
const MaxSeeds = 1000

// Progress hears how many of a request's runs have finished, of how many,
// after each batch: for a progress line, or a page drawing as steps finish.
type Progress func(done, total int)

// resultBudget is how many 10 s windows the Results of one batch may hold
// at once (each window 72 bytes), so that a batch of day-long runs keeps a
// few megabytes of Results rather than hundreds.
const resultBudget = 100_000

// batchSize is how many runs measure hands sim.Runs at once: enough to keep
// every core busy to the end of a batch, few enough that the Results held
// at once stay small whatever the runs' length.
func batchSize(durationS float64) int {
	windows := int(math.Ceil(durationS/10)) + 1
	return max(runtime.GOMAXPROCS(0), min(256, resultBudget/windows))
}

// seedsFrom checks that n seeds from base.Seed are all valid seeds, as
// the field "seeds".
func seedsFrom(base sim.Config, n int) error {
	if n < 1 || n > MaxSeeds {
		return &sim.FieldError{Field: "seeds", Msg: limits.Count(int64(n)) + " is out of range: use a whole number from 1 to " + limits.Count(MaxSeeds)}
	}
	if base.Seed > sim.MaxSeed || base.Seed+uint64(n)-1 > sim.MaxSeed {
		return &sim.FieldError{Field: "seeds", Msg: limits.Count(int64(n)) + " seeds from seed " + limits.CountU(base.Seed) +
			" pass the largest seed, " + limits.CountU(sim.MaxSeed) + ": start from a smaller seed"}
	}
	return nil
}

// budget refuses a request of settings run at n seeds each that would send
// over MaxAttempts, saying what it would send, what it is made of (the
// caller's "31 steps x 6 policies") and the most seeds that fit.
func budget(settings []sim.Config, n int, made string) error {
	seeds := " seeds"
	if n == 1 {
		seeds = " seed"
	}
	var perSeed float64
	for _, c := range settings {
		perSeed += c.ExpectedAttempts()
	}
	// The most seeds both budgets allow.
	fit := MaxRuns / len(settings)
	if perSeed > 0 {
		fit = min(fit, int(min(MaxAttempts/perSeed, MaxRuns)))
	}
	var msg string
	switch need, runs := perSeed*float64(n), len(settings)*n; {
	case need > MaxAttempts:
		msg = "this would send about " + count(need) + " attempts (" + made + " x " + limits.Count(int64(n)) + seeds + "), over the budget of " +
			count(MaxAttempts) + " a request: "
	case runs > MaxRuns:
		msg = "this would make " + limits.Count(int64(runs)) + " runs (" + made + " x " + limits.Count(int64(n)) + seeds + "), over the most a request makes, " +
			limits.Count(MaxRuns) + ": "
	default:
		return nil
	}
	switch {
	case fit == 1:
		msg += "at most 1 seed fits"
	case fit > 1:
		msg += "at most " + limits.Count(int64(fit)) + " seeds fit"
	default:
		msg += "even one seed is too much: use fewer steps, fewer policies or smaller runs"
	}
	return &sim.FieldError{Field: "seeds", Msg: msg}
}

// count writes a count of attempts with commas: 48,000,000.
func count(x float64) string { return limits.Num(math.Round(x)) }

// measure runs each setting at seeds Seed to Seed+n-1 of its own
// (settings[i].Seed is replaced) and folds each setting's runs into its
// Outcome, in seed order. The caller has validated the settings, the seeds
// and the budget. progress, if not nil, hears after each batch; keep, if
// not nil, sees each run's Result with its setting's index (the tests'
// window on what ran).
func measure(settings []sim.Config, first uint64, n int, progress Progress, keep func(int, sim.Result)) ([]Outcome, error) {
	total := len(settings) * n
	most := 0.0
	for _, c := range settings {
		most = max(most, c.DurationS)
	}
	size := batchSize(most)
	tallies := make([]tally, len(settings))
	cs := make([]sim.Config, 0, size)
	for from := 0; from < total; from += size {
		cs = cs[:0]
		for i := from; i < min(from+size, total); i++ {
			c := settings[i/n]
			c.Seed = first + uint64(i%n)
			cs = append(cs, c)
		}
		rs, err := sim.Runs(cs)
		if be := (*sim.BatchError)(nil); errors.As(err, &be) {
			err = be.Err // its index is in the batch, which the caller never saw
		}
		if err != nil {
			return nil, err
		}
		for j, r := range rs {
			tallies[(from+j)/n].add(r)
			if keep != nil {
				keep((from+j)/n, r)
			}
		}
		if progress != nil {
			progress(from+len(rs), total)
		}
	}
	out := make([]Outcome, len(tallies))
	for i, t := range tallies {
		out[i] = t.outcome()
	}
	return out, nil
}
