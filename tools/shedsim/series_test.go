package main

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/shedsim/shedsim/sim"
	"github.com/shedsim/shedsim/sim/report"
)

// TestSeries: --series prints one run's series as sim/report writes it, at
// sim.SeriesStep's step unless --series-step-s gives one, and --json with
// it prints sim.Run's Result carrying the series.
func TestSeries(t *testing.T) {
	tests := []struct {
		reason string
		args   []string
		change func(*sim.Config)
	}{
		{"the shop's run, a point a second", []string{"--series"}, func(c *sim.Config) { c.SeriesStepS = 1 }},
		{"an hour: 10 s steps", []string{"--series", "--duration-s", "3600"}, func(c *sim.Config) { c.DurationS, c.SeriesStepS = 3600, 10 }},
		{"a step of one's own, a policy, retries", []string{"--series", "--series-step-s", "7", "--policy", "bounded", "--retries", "3"},
			func(c *sim.Config) { c.SeriesStepS, c.Policy, c.Retries = 7, sim.Bounded, 3 }},
		{"a sample", []string{"--series", "--sample", "retries"}, nil},
	}
	for _, tt := range tests {
		c := sim.DefaultConfig()
		if tt.change != nil {
			tt.change(&c)
		} else {
			s, ok := sim.SampleByKey("retries")
			require.True(t, ok)
			c = s.Config
			c.SeriesStepS = sim.SeriesStep(c.DurationS)
		}
		r, err := sim.Run(c)
		require.NoError(t, err)
		var want bytes.Buffer
		require.NoError(t, report.WriteSeries(&want, r))
		out, _, err := runArgs(t, tt.args...)
		require.NoError(t, err, tt.reason)
		assert.Equal(t, want.String(), out, tt.reason)

		out, _, err = runArgs(t, append(tt.args, "--json")...)
		require.NoError(t, err, tt.reason)
		var got sim.Result
		require.NoError(t, json.Unmarshal([]byte(out), &got))
		assert.Equal(t, r, got, "%s: --json prints the Result with its series", tt.reason)
	}

	out, _, err := runArgs(t, "--policy", "codel", "--series-step-s", "5", "--json")
	require.NoError(t, err)
	var got sim.Result
	require.NoError(t, json.Unmarshal([]byte(out), &got))
	require.NotNil(t, got.Series, "--json carries the series a step asks for")
	assert.Len(t, got.Series.Points, 60)
}

// TestSeriesGolden pins --series's text for the metastable case.
func TestSeriesGolden(t *testing.T) {
	out, _, err := runArgs(t, "--series", "--retries", "3")
	require.NoError(t, err)
	path := filepath.Join("testdata", "series-retries3.golden")
	if *update {
		require.NoError(t, os.WriteFile(path, []byte(out), 0o644))
	}
	want, err := os.ReadFile(path)
	require.NoError(t, err, "run go test ./tools/shedsim -update to create %s", path)
	assert.Equal(t, string(want), out, "refresh with -update if the change is intended")
}

// TestSeriesBadInput: a step that prints nothing, or none where --series
// needs one, or --series with another output, is refused naming the flag.
func TestSeriesBadInput(t *testing.T) {
	tests := []struct {
		reason string
		args   []string
		want   string
	}{
		{"a step for the post's tables, which print no series", []string{"--series-step-s", "2"},
			"--series-step-s: only --series and --json print the series: add --series, or leave out --series-step-s"},
		{"a step for one run's view", []string{"--policy", "fifo", "--series-step-s", "2"},
			"--series-step-s: only --series and --json print the series"},
		{"no series, with --series", []string{"--series", "--series-step-s", "0"},
			"--series-step-s: 0 asks for no series, which --series prints: give a step, or leave out --series-step-s for 1 s at this duration"},
		{"too many points", []string{"--series", "--series-step-s", "0.01"},
			"--series-step-s: 0.01 s makes 30,000 points of a 300 s run, over the 3,600 a series may hold: use a step of at least 0.084 s"},
		{"with the timeline", []string{"--series", "--timeline"}, "--timeline and --series print different things: give one"},
		{"with seeds", []string{"--series", "--seeds", "3"}, "--seeds and --series print different things: give one"},
		{"with the clients", []string{"--series", "--clients"}, "--clients and --series print different things: give one"},
		{"CSV without the series", []string{"--csv"}, "--csv: only --series prints CSV here"},
		{"CSV and JSON", []string{"--series", "--csv", "--json"}, "--json and --csv print different things: give one"},
	}
	for _, tt := range tests {
		_, _, err := runArgs(t, tt.args...)
		require.Error(t, err, tt.reason)
		assert.Contains(t, err.Error(), tt.want, tt.reason)
	}
}

// TestSeriesCSV: --series --csv is the series as sim.Run records it, a row
// a step, each number as the Result holds it.
func TestSeriesCSV(t *testing.T) {
	out, _, err := runArgs(t, "--series", "--csv", "--retries", "3", "--series-step-s", "7")
	require.NoError(t, err)
	rows, err := csv.NewReader(strings.NewReader(out)).ReadAll()
	require.NoError(t, err)
	c := sim.DefaultConfig()
	c.Retries, c.SeriesStepS = 3, 7
	r, err := sim.Run(c)
	require.NoError(t, err)
	require.Len(t, rows, 1+len(r.Series.Points), "a header, then a row a step")
	assert.Equal(t, seriesCSV, rows[0])
	col := map[string]int{}
	for i, name := range rows[0] {
		col[name] = i
	}
	num := func(row []string, name string) float64 {
		v, err := strconv.ParseFloat(row[col[name]], 64)
		require.NoError(t, err, name)
		return v
	}
	var attempts float64
	for k, p := range r.Series.Points {
		row := rows[1+k]
		assert.Equal(t, p.StartS, num(row, "start_s"))
		assert.Equal(t, float64(p.Queue), num(row, "queue"))
		assert.Equal(t, p.OldestWaitMS, num(row, "oldest_wait_ms"))
		assert.Equal(t, p.BusyWasted, num(row, "busy_wasted"))
		assert.Equal(t, float64(p.Answered), num(row, "answered"))
		attempts += num(row, "first_attempts") + num(row, "retries")
	}
	assert.Equal(t, float64(r.Attempts), attempts, "the rows' attempts add up to the run's")
	assert.Equal(t, "300", rows[len(rows)-1][col["end_s"]], "the last step ends with the run")
}
