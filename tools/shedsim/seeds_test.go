package main

import (
	"bytes"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/shedsim/shedsim/sim"
	"github.com/shedsim/shedsim/sim/report"
)

// TestSeedsPrintsTheReport: --seeds prints sim/report's seeds table, built
// here from runs of the same seeds made one by one, so that the page (which
// folds its seeds with the same report.SeedSummary) and the command line
// print the same numbers for the same seeds.
func TestSeedsPrintsTheReport(t *testing.T) {
	cases := []struct {
		name, reason string
		args         []string
		n            int // the seeds args ask for
		base         func(*sim.Config)
	}{
		{"the post's sale", "the default config, every policy, seeds 1 to 4", []string{"--seeds", "4"}, 4, func(*sim.Config) {}},
		{"retries from seed 7", "a later first seed and retries, where some seeds get stuck", []string{"--seeds", "3", "--seed", "7", "--retries", "3", "--sale-rps", "130"}, 3,
			func(c *sim.Config) { c.Seed, c.Retries, c.SaleRPS = 7, 3, 130 }},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			out, _, err := runArgs(t, tc.args...)
			require.NoError(t, err)
			base := sim.DefaultConfig()
			tc.base(&base)
			summaries := make([]report.SeedSummary, len(sim.Policies))
			for i, p := range sim.Policies {
				for k := 0; k < tc.n; k++ {
					c := base
					c.Policy, c.Seed = p, base.Seed+uint64(k)
					r, err := sim.Run(c)
					require.NoError(t, err)
					summaries[i].Add(r)
				}
			}
			var want bytes.Buffer
			_, err = report.SeedsTable(sim.Policies, summaries).WriteTo(&want)
			require.NoError(t, err)
			assert.Contains(t, out, "\n\n"+want.String(), tc.reason)
		})
	}
}
