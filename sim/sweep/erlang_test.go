package sweep

import (
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/shedsim/shedsim/sim"
	"github.com/shedsim/shedsim/sim/plan"
)

// TestSeekAgreesWithErlangC asks the planner's question of the simulator:
// the fewest workers for which at most 5% of requests wait at all, at a
// steady 150/s (no sale: its rate is the normal one) and 80 ms, with
// timeouts out of reach (an hour), so that the run is an M/M/c queue.
// Erlang C says 19 workers, with 18 leaving 7.56% waiting and 19 4.35%
// (the post's numbers, and sim/plan's). The seek must land on the same
// count, and its measured shares either side must agree with Erlang C
// within 4 standard errors of their mean over the 20 seeds: statistically,
// not tuned to a seed.
func TestSeekAgreesWithErlangC(t *testing.T) {
	base := sim.DefaultConfig()
	base.NormalRPS, base.SaleRPS, base.TimeoutMS = 150, 150, 3_600_000
	const seeds = 20
	a, err := Seek(SeekSpec{Base: base, Knob: "workers", From: 1, To: 40, Seeds: seeds, Goal: Goal{Waited: 0.05}})
	require.NoError(t, err)
	theory, err := plan.Compute(plan.Input{RateRPS: 150, ServiceMS: 80, Target: 0.05})
	require.NoError(t, err)
	require.NotNil(t, theory.OneFewer)
	require.Equal(t, 19, theory.Servers, "Erlang C: 19 servers")
	require.True(t, a.Found)
	assert.Equal(t, float64(theory.Servers), a.Value, "the simulator's fewest workers are Erlang C's")
	require.NotNil(t, a.Beside)
	assert.Equal(t, float64(theory.Servers-1), a.Beside.Value)
	for _, side := range []struct {
		name   string
		got    Stat
		theory float64
	}{
		{"19 workers", a.At.Outcome.Waited, theory.Answer.Wait},
		{"18 workers", a.Beside.Outcome.Waited, theory.OneFewer.Wait},
	} {
		require.Equal(t, seeds, side.got.N, side.name)
		se := side.got.SD / math.Sqrt(seeds)
		assert.InDelta(t, side.theory, side.got.Mean, 4*se, "%s: measured %.4f ± %.4f (standard error), Erlang C %.4f", side.name, side.got.Mean, se, side.theory)
		t.Logf("%s: %.2f%% waiting over %d seeds (standard error %.2f points); Erlang C %.2f%%", side.name, side.got.Mean*100, seeds, se*100, side.theory*100)
	}
	assert.InDelta(t, 0.0756, theory.OneFewer.Wait, 0.00005, "the post's 7.56% with 18")
	assert.InDelta(t, 0.0435, theory.Answer.Wait, 0.00005, "the post's 4.35% with 19")
}
