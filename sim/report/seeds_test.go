package report_test

import (
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/shedsim/shedsim/sim"
	"github.com/shedsim/shedsim/sim/report"
)

// seedResult is a Result with only what SeedSummary reads set.
func seedResult(people int, answered, refused, timedOut float64, wasted int, back *float64, rec sim.Recovery) sim.Result {
	var r sim.Result
	r.Sale.People = people
	r.Sale.AnsweredShare, r.Sale.RefusedShare, r.Sale.TimedOutShare = answered, refused, timedOut
	r.Wasted = wasted
	r.BackToNormalS, r.Recovery = back, rec
	return r
}

func ptr(x float64) *float64 { return &x }

// TestSeedSummaryOfKnownResults folds hand-made Results whose means and
// sample standard deviations are known, and checks the words that quote them.
func TestSeedSummaryOfKnownResults(t *testing.T) {
	cases := []struct {
		name, reason string
		results      []sim.Result
		answered     string // SpreadPercent of the answered share
		row          []string
		recovery     string
	}{
		{
			name:   "three seeds, one stuck",
			reason: "shares 0.1, 0.2, 0.3 have mean 20% and sample sd 10%; the stuck seed is counted, not averaged into the seconds",
			results: []sim.Result{
				seedResult(100, 0.1, 0.9, 0, 10, ptr(4), sim.Normal),
				seedResult(100, 0.2, 0.8, 0, 20, ptr(6), sim.Normal),
				seedResult(100, 0.3, 0.5, 0.2, 30, nil, sim.Stuck),
			},
			answered: "20.0 ± 10.0%",
			row:      []string{"Unbounded queue", "20.0 ± 10.0%", "73.3 ± 20.8%", "6.7 ± 11.5%", "-", "20 ± 10", "5 ± 1.4 s", "1 stuck"},
			recovery: "back in 2 of 3 seeds, stuck in 1",
		},
		{
			name:   "one seed",
			reason: "a single seed has no spread: its sd is 0, not NaN",
			results: []sim.Result{
				seedResult(50, 0.084, 0, 0.916, 7, ptr(0), sim.Normal),
			},
			answered: "8.4 ± 0.0%",
			row:      []string{"Unbounded queue", "8.4 ± 0.0%", "0.0 ± 0.0%", "91.6 ± 0.0%", "-", "7 ± 0", "at once", "0"},
			recovery: "back in 1 of 1 seed",
		},
		{
			name:   "nobody arrived in one seed",
			reason: "a seed with nobody in the sale has no shares, so the shares are over the other seed only; it still counts for recovery",
			results: []sim.Result{
				seedResult(0, 0, 0, 0, 0, ptr(0), sim.Normal),
				seedResult(10, 0.5, 0.5, 0, 0, nil, sim.Backlog),
			},
			answered: "50.0 ± 0.0%",
			row:      []string{"Unbounded queue", "50.0 ± 0.0%", "50.0 ± 0.0%", "0.0 ± 0.0%", "-", "0 ± 0", "at once", "1 backlog"},
			recovery: "back in 1 of 2 seeds, backlog in 1",
		},
		{
			name:   "nobody arrived in any seed",
			reason: "no share at all is a dash, not 0% or NaN",
			results: []sim.Result{
				seedResult(0, 0, 0, 0, 0, nil, sim.Unmeasured),
				seedResult(0, 0, 0, 0, 0, nil, sim.Overloaded),
			},
			answered: "-",
			row:      []string{"Unbounded queue", "-", "-", "-", "-", "0 ± 0", "-", "1 overloaded, 1 unmeasured"},
			recovery: "back in 0 of 2 seeds, overloaded in 1, unmeasured in 1",
		},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			s := report.SummarizeSeeds(tc.results)
			require.Equal(t, len(tc.results), s.Seeds, tc.reason)
			assert.Equal(t, tc.answered, report.SpreadPercent(s.Answered), tc.reason)
			assert.Equal(t, tc.row, report.SeedRow(sim.FIFO, s), tc.reason)
			assert.Equal(t, tc.recovery, report.SeedsRecovery(s), tc.reason)
		})
	}
}

// TestSpread checks the mean and the sample standard deviation against
// their definitions, sum/n and sqrt(sum((x-mean)^2)/(n-1)).
func TestSpread(t *testing.T) {
	xs := []float64{0.061, 0.07, 0.052, 0.088, 0.075}
	var s report.Spread
	mean := 0.0
	for _, x := range xs {
		s.Add(x)
		mean += x
	}
	mean /= float64(len(xs))
	ss := 0.0
	for _, x := range xs {
		ss += (x - mean) * (x - mean)
	}
	assert.Equal(t, len(xs), s.N)
	assert.InDelta(t, mean, s.Mean(), 1e-15)
	assert.InDelta(t, math.Sqrt(ss/float64(len(xs)-1)), s.SD(), 1e-12)
}

// TestSeedsNote says over how many seeds the shares are, when some seeds
// brought nobody during the sale, and nothing when every seed did.
func TestSeedsNote(t *testing.T) {
	c := sim.DefaultConfig()
	all := report.SummarizeSeeds([]sim.Result{seedResult(1, 1, 0, 0, 0, ptr(0), sim.Normal)})
	assert.Empty(t, report.SeedsNote(c, all), "every seed brought someone")
	some := report.SummarizeSeeds([]sim.Result{seedResult(1, 1, 0, 0, 0, ptr(0), sim.Normal), seedResult(0, 0, 0, 0, 0, ptr(0), sim.Normal)})
	assert.Equal(t, "Shares are over the 1 of 2 seeds in which anyone arrived "+report.Arrived(c)+".", report.SeedsNote(c, some))
}
