package report_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/shedsim/shedsim/sim"
	"github.com/shedsim/shedsim/sim/report"
)

func TestPostAnswered(t *testing.T) {
	at := func(p sim.Policy, seed uint64, edit func(*sim.Config)) sim.Config {
		c := sim.DefaultConfig()
		c.Policy, c.Seed = p, seed
		edit(&c)
		return c
	}
	none := func(*sim.Config) {}
	cases := []struct {
		name, reason string
		c            sim.Config
		want         float64
		ok           bool
	}{
		{"unbounded", "the post's 8.4% for the shop's sale", at(sim.FIFO, 1, none), 0.084, true},
		{"skip", "from 8.4% to 19.5%", at(sim.Skip, 1, none), 0.195, true},
		{"bounded", "answers 67.1% of the people who arrive during the sale", at(sim.Bounded, 1, none), 0.671, true},
		{"any seed", "the post's inputs are the same at every seed", at(sim.FIFO, 40, none), 0.084, true},
		{"codel", "the post gives no share for the queue timeout, only 'slightly fewer'", at(sim.CoDel, 1, none), 0, false},
		{"other inputs", "a sale of 200/s is not the post's sale", at(sim.FIFO, 1, func(c *sim.Config) { c.SaleRPS = 200 }), 0, false},
		{"retries", "with retries the post gives no such share", at(sim.Bounded, 1, func(c *sim.Config) { c.Retries = 1 }), 0, false},
		{"timeout 1 s", "the post's table of timeouts: 3.5% at 1 s", at(sim.FIFO, 1, func(c *sim.Config) { c.TimeoutMS = 1000 }), 0.035, true},
		{"timeout 4 s", "and 16.5% at 4 s", at(sim.FIFO, 1, func(c *sim.Config) { c.TimeoutMS = 4000 }), 0.165, true},
		{"bounded, timeout 4 s", "the table is the unbounded queue's only", at(sim.Bounded, 1, func(c *sim.Config) { c.TimeoutMS = 4000 }), 0, false},
		{"timeout 3 s", "a timeout the post's table has not", at(sim.FIFO, 1, func(c *sim.Config) { c.TimeoutMS = 3000 }), 0, false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got, ok := report.PostAnswered(tc.c)
			assert.Equal(t, tc.ok, ok, tc.reason)
			assert.Equal(t, tc.want, got, tc.reason)
		})
	}
}

func TestPostBesideRun(t *testing.T) {
	c := sim.DefaultConfig()
	c.TimeoutMS = 1000
	other := c
	other.SaleRPS = 200
	cases := []struct {
		name, reason string
		c            sim.Config
		answered     float64
		want         string
	}{
		{"timeout 1 s", "issue 28: the lab showed 2.6% where the post says 3.5%, and did not say why", c, 0.026,
			"The post gives 3.5% here; seed 1 answers 2.6%. One seed is one draw of the traffic, and the post's figure came from a run of its own, so the two differ by a few points: the simulator sets the post's figure beside the mean over 40 seeds."},
		{"not the post's inputs", "nothing to set beside", other, 0.01, ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			assert.Equal(t, tc.want, report.PostBesideRun(tc.c, tc.answered), tc.reason)
		})
	}
}

// spreadOf is a Spread of xs.
func spreadOf(xs ...float64) report.Spread {
	var s report.Spread
	for _, x := range xs {
		s.Add(x)
	}
	return s
}

func TestPostBesideSpread(t *testing.T) {
	post := sim.DefaultConfig()
	other := sim.DefaultConfig()
	other.SaleRPS = 200
	cases := []struct {
		name, reason string
		c            sim.Config
		s            report.Spread
		want         string
	}{
		{"above", "mean 6%, sd 1%: 8.4% is 2.4 sd above", post, spreadOf(0.05, 0.06, 0.07), "The post's 8.4% is 2.4 standard deviations above this mean, 6.0 ± 1.0%."},
		{"within", "mean 8%, sd 1%: 8.4% is inside", post, spreadOf(0.07, 0.08, 0.09), "The post's 8.4% is within one standard deviation of this mean, 8.0 ± 1.0%."},
		{"below", "mean 10%, sd 1%", post, spreadOf(0.09, 0.10, 0.11), "The post's 8.4% is 1.6 standard deviations below this mean, 10.0 ± 1.0%."},
		{"one seed", "no spread: the distance in points", post, spreadOf(0.07), "The post's 8.4% is 1.4 points above this mean, 7.0 ± 0.0%."},
		{"not the post's inputs", "nothing to mark", other, spreadOf(0.07, 0.08), ""},
		{"no seed with people", "no mean to set it beside", post, report.Spread{}, ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			assert.Equal(t, tc.want, report.PostBesideSpread(tc.c, tc.s), tc.reason)
		})
	}
}

// TestPostBoundedInsideTheSpread: the bounded queue's 67.1% lies within
// one standard deviation of this model's mean over seeds 1..20 (the
// README's 67.2%), as a reader marking the post's figure would see it.
func TestPostBoundedInsideTheSpread(t *testing.T) {
	var s report.SeedSummary
	for seed := uint64(1); seed <= 20; seed++ {
		c := sim.DefaultConfig()
		c.Policy, c.Seed = sim.Bounded, seed
		r, err := sim.Run(c)
		require.NoError(t, err)
		s.Add(r)
	}
	c := sim.DefaultConfig()
	c.Policy = sim.Bounded
	assert.Contains(t, report.PostBesideSpread(c, s.Answered), "The post's 67.1% is within one standard deviation of this mean")
}
