package sim

import (
	"encoding/json"
	"math/rand/v2"
	"strconv"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestNewcomers holds newcomers to what it is for and to what it must
// leave alone. The default run: it computes nearly every attempt, and the
// Result is the event loop's, byte for byte. Random fifo Configs it may
// run (arrivalOrderConfig's, drawn towards the edges): the same, and every
// way it leaves an attempt to arrivalOrder's loop is met, so that each is
// shown to hand over an attempt the loop then computes as the event loop
// does.
func TestNewcomers(t *testing.T) {
	// byBoth runs c by the arrival-order path, and if that computes it,
	// by the event loop too, and requires the same Result. It returns the
	// arrival-order path's engine.
	byBoth := func(what string, c Config) *engine {
		t.Helper()
		require.NoError(t, c.Validate(), what)
		require.True(t, arrivalOrderTakes(c), "%s: the arrival-order path takes it", what)
		e := newEngine(c, nil)
		e.arrivalOrder()
		want, err := json.Marshal(eventLoopResult(c))
		require.NoError(t, err)
		got, err := json.Marshal(e.result())
		require.NoError(t, err)
		cj, _ := json.Marshal(c)
		assert.Equal(t, string(want), string(got), "%s: newcomers and the arrival-order path differ from the event loop\nconfig: %s", what, cj)
		return e
	}

	e := byBoth("the default run", DefaultConfig())
	r := e.result()
	assert.Greater(t, e.newcomersTook, r.Attempts*9/10, "newcomers computes nearly every attempt of the default run (%d of %d; left: %v)", e.newcomersTook, r.Attempts, e.newcomersLeft)

	d := DefaultConfig()
	var took int
	var left [newcomersLeaves]int
	rnd := rand.New(rand.NewPCG(15, 1934))
	for i := range 600 {
		c := arrivalOrderConfig(rnd, 20_000)
		// what newcomers takes: fifo, exponential and never stretched,
		// no series, retries at a fixed delay
		c.Policy, c.Service, c.ServiceP99MS, c.SeriesStepS = FIFO, d.Service, d.ServiceP99MS, 0
		c.SlowFactor, c.SlowStartS, c.SlowS = d.SlowFactor, d.SlowStartS, d.SlowS
		c.Client, c.RetryJitterMS = Fixed, 0
		if c.Validate() != nil {
			continue
		}
		e := byBoth("random fifo config "+strconv.Itoa(i), c)
		require.True(t, e.newcomersTake(), "newcomers takes config %d", i)
		took += e.newcomersTook
		for why, k := range e.newcomersLeft {
			left[why] += k
		}
	}
	t.Logf("newcomers computed %d attempts and left %v", took, left)
	assert.Positive(t, took)
	for why, k := range left {
		assert.Positive(t, k, "some attempt leaves newcomers for reason %d (see newcomersLeft's list)", why)
	}
}
