package report

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/shedsim/shedsim/sim"
)

// TestYourServiceWords: a service with a tail is described by its three
// numbers and the capacity they give, and patience by what it changes:
// who gives up, and who is left to retry (rules 3a, 4a, 18a).
func TestYourServiceWords(t *testing.T) {
	tail, ok := sim.SampleByKey("tail")
	require.True(t, ok)
	assert.Contains(t, Describe(tail.Config), "8 workers at a log-normal 80 ms mean, 41 ms median, 600 ms p99 (100/s)")
	assert.Equal(t, "median 41 ms, mean 80 ms, p99 600 ms: 8 workers serve 100/s", ServiceNumbers(tail.Config))
	assert.Equal(t, "median 55 ms, mean 80 ms, p99 368 ms: 8 workers serve 100/s", ServiceNumbers(sim.DefaultConfig()),
		"the post's exponential: ln 2 and ln 100 times the mean")
	c := sim.DefaultConfig()
	c.Service = sim.ConstantService
	assert.Contains(t, Describe(c), "8 workers at a constant 80 ms (100/s)")

	m, ok := sim.SampleByKey("mobile-checkout")
	require.True(t, ok)
	assert.Contains(t, Describe(m.Config), "a 10 s timeout, people giving up after a mean of 3 s, 3 retries")
	assert.Equal(t, "retries=3: 70/s x 1.04 tries = 72.59/s against 100/s, drains (people give up after a mean of 3 s, so only the 3.6% who wait out the 10 s timeout retry)",
		FluidLine(m.Config, 3))
	r, err := sim.Run(m.Config)
	require.NoError(t, err)
	assert.Contains(t, Outlook(r).Text, "so only the 3.6% who wait out the 10 s timeout retry")
	assert.Contains(t, OneRun(r), "gave up before the timeout")
	d, err := sim.Run(sim.DefaultConfig())
	require.NoError(t, err)
	assert.NotContains(t, OneRun(d), "gave up", "nobody gives up without patience")
}
