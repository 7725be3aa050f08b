package sim

import (
	"runtime"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestRunsIsRun checks that reusing an engine's memory, and running on
// several engines at once, changes nothing: the lab, every sample and a
// few client strategies, in one batch on three engines (so each run
// inherits some earlier run's dirty memory), give the same Results as
// separate Runs.
func TestRunsIsRun(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(3))
	cs := Lab()
	for _, s := range Samples() {
		cs = append(cs, s.Config)
	}
	for _, cl := range Clients {
		c := DefaultConfig()
		c.Policy, c.Client, c.Retries, c.RetryJitterMS, c.RefusalCostMS = Priority, cl, 3, 250, 10
		cs = append(cs, c)
	}
	got, err := Runs(cs)
	require.NoError(t, err)
	require.Len(t, got, len(cs))
	for i, c := range cs {
		want, err := Run(c)
		require.NoError(t, err)
		assert.Equal(t, want, got[i], "config %d (%s, retries %d, client %s): Runs must equal Run", i, c.Policy, c.Retries, c.Client)
	}
}

func TestRunsValidatesFirst(t *testing.T) {
	bad := DefaultConfig()
	bad.Workers = 0
	rs, err := Runs([]Config{DefaultConfig(), bad})
	assert.Nil(t, rs, "nothing runs when any Config is invalid")
	require.Error(t, err)
	assert.Contains(t, err.Error(), "config 1: workers:", "the error says which Config and which field")
	fes := FieldErrors(err)
	require.Len(t, fes, 1, "the field error is still there to find")
	assert.Equal(t, "workers", fes[0].Field)
}

// TestEngineCount checks that Runs uses a core per engine, and as many
// engines only as MaxAttempts covers at the batch's largest run.
func TestEngineCount(t *testing.T) {
	assert.Equal(t, 8, engineCount(8, len(Lab()), 115_200), "the lab: one engine a core")
	assert.Equal(t, 6, engineCount(8, 6, 25_800), "six policies: one engine each")
	assert.Equal(t, 1, engineCount(1, 6, 25_800), "one core (js/wasm): one engine")
	assert.Equal(t, 1, engineCount(8, 20, 8_640_000), "day-long runs: one at a time")
	assert.Equal(t, 2, engineCount(8, 20, MaxAttempts/2), "two that fill MaxAttempts between them")
	assert.Equal(t, 1, engineCount(8, 0, 0), "an empty batch")
}
