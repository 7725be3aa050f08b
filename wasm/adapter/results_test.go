package adapter

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/shedsim/shedsim/sim"
)

// TestDecodeRunIsTheRun: a Result that a worker ran and marshalled comes
// back to the page as the same Result, every field and float bit, so the
// page draws what the engine measured.
func TestDecodeRunIsTheRun(t *testing.T) {
	var cases []sim.Config
	for _, s := range sim.Samples() {
		cases = append(cases, s.Config)
	}
	c := sim.DefaultConfig()
	c.Client, c.Retries = sim.Budget, 3
	cases = append(cases, c)
	for _, c := range cases {
		want, err := sim.Run(c)
		require.NoError(t, err)
		answer := runJSON(MustJSON(c))
		got, err := DecodeRun(answer, c)
		require.NoError(t, err)
		assert.Equal(t, want, got, "%+v", c)
		// DecodeRun takes the Config sent for the answer's, unread: they
		// are the same.
		var whole sim.Result
		require.NoError(t, json.Unmarshal([]byte(answer), &whole))
		assert.Equal(t, c.Resolved(), whole.Config, "the answer's Config is the one sent, its tables' fields filled in")
	}
}

func TestDecodeRunNamesTheFailure(t *testing.T) {
	cases := []struct{ reason, answer, want string }{
		{"a Config the worker refused", `{"errors":[{"field":"workers","msg":"0 is out of range"}]}`, "workers: 0 is out of range"},
		{"a panic in the worker", `{"error":"internal error"}`, "a worker failed: internal error"},
		{"not JSON at all", `Result`, "not JSON"},
	}
	for _, tc := range cases {
		_, err := DecodeRun(tc.answer, sim.DefaultConfig())
		require.Error(t, err, tc.reason)
		assert.Contains(t, err.Error(), tc.want, tc.reason)
	}
}

func TestRunTotalsIsTheRunWithoutWindows(t *testing.T) {
	c := sim.DefaultConfig()
	c.Seed = 1<<53 - 1 // the largest seed a link may give
	want, err := sim.Run(c)
	require.NoError(t, err)
	want.Windows = nil
	got, err := DecodeRun(RunTotals(WorkerConfig(c)), c)
	require.NoError(t, err)
	assert.Equal(t, want, got)
	assert.Contains(t, RunTotals(`{"workers":0}`), `"error"`, "a Config sim.Run refuses is an error")
	assert.Contains(t, RunTotals(`{"workers":`), `"error"`, "so is one that does not decode")
	// Nothing but WorkerConfig's own writing is run: not a key no Config
	// has, nor one in another case, nor a Config with a key left out,
	// each of which json.Unmarshal alone would run as a zero or ignore.
	whole := WorkerConfig(sim.DefaultConfig())
	for _, bad := range []struct{ reason, config string }{
		{"a key no Config has", strings.Replace(whole, `{`, `{"sale_rsp":300,`, 1)},
		{"a key in another case", strings.Replace(whole, `"sale_rps"`, `"Sale_RPS"`, 1)},
		{"a key left out", strings.Replace(whole, `"retries":0,`, ``, 1)},
	} {
		require.NotEqual(t, whole, bad.config, bad.reason)
		assert.Contains(t, RunTotals(bad.config), "not as workerConfig writes it", bad.reason)
	}
	long := sim.DefaultConfig()
	long.DurationS = PageMaxDurationS + 1
	assert.Contains(t, RunTotals(WorkerConfig(long)), `"error"`, "and one over the page's budget")

	// A client comparison's run: backoff with no retries, which the API
	// refuses as a setting that counts for nothing, but the page runs.
	c = sim.DefaultConfig()
	c.Client = sim.Backoff
	want, err = sim.Run(c)
	require.NoError(t, err)
	want.Windows = nil
	got, err = DecodeRun(RunTotals(WorkerConfig(c)), c)
	require.NoError(t, err)
	assert.Equal(t, want, got)
}

// TestRunPartsIsTheRun: the two parts a worker sends for the chosen
// policy, read back, are its Result, every window to the bit.
func TestRunPartsIsTheRun(t *testing.T) {
	for _, s := range sim.Samples() {
		for _, step := range []float64{0, sim.SeriesStep(s.Config.DurationS), 7.3} {
			c := s.Config
			c.SeriesStepS = step
			want, err := sim.Run(c)
			require.NoError(t, err)
			totals, windows := RunParts(WorkerConfig(c))
			got, err := DecodeRun(totals, c)
			require.NoError(t, err)
			assert.Nil(t, got.Windows, "the totals come without the windows")
			if step > 0 {
				assert.Nil(t, got.Series.Points, "the totals come without the series' points")
			}
			require.NoError(t, ReadParts(&got, windows))
			assert.Equal(t, want, got, "%s, series step %g s", s.Key, step)
		}
	}
	_, err := readWindows(make([]byte, 7))
	assert.Error(t, err, "bytes that are not whole windows")
}
