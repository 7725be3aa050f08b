package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/shedsim/shedsim/sim"
)

// chainText is a chain of two hops, as --hops takes it on the command
// line.
const chainText = "payments: workers=4 service_ms=10 timeout_ms=1000 retries=1 backoff=envoy backoff_base_ms=25 backoff_max_ms=250; bank: workers=2 service_ms=20 timeout_ms=500"

// TestHopsTextOrFile: --hops takes the hops themselves or the name of a
// file that holds them, and the run is the same.
func TestHopsTextOrFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "chain.txt")
	require.NoError(t, os.WriteFile(path, []byte(strings.ReplaceAll(chainText, "; ", "\n")), 0o644))
	fromText, _, err := runArgs(t, "--policy", "fifo", "--json", "--hops", chainText)
	require.NoError(t, err)
	fromFile, _, err := runArgs(t, "--policy", "fifo", "--json", "--hops", path)
	require.NoError(t, err)
	var a, b sim.Result
	require.NoError(t, json.Unmarshal([]byte(fromText), &a))
	require.NoError(t, json.Unmarshal([]byte(fromFile), &b))
	require.Len(t, a.Hops, 2, "--json carries each hop's Result")
	assert.Equal(t, "payments", a.Hops[0].Hop.Name)
	assert.Equal(t, 1, a.Hops[0].Hop.Proxy.Retries)
	assert.Positive(t, a.Hops[1].Result.Attempts, "the bank received tries")
	a.Config.Hops, b.Config.Hops = "", ""
	assert.Equal(t, a, b, "the same chain, typed or from a file, one line or a line a hop, runs the same")
}

// TestHopsText: the text output of a chain ends with its table and its
// fluid view; every policy's tables too.
func TestHopsText(t *testing.T) {
	for _, args := range [][]string{{"--policy", "fifo"}, nil} {
		out, _, err := runArgs(t, append(args, "--hops", chainText)...)
		require.NoError(t, err, args)
		assert.Contains(t, out, "\nThe chain, with the unbounded queue at the entry.", args)
		assert.Contains(t, out, "\n  bank: 70/s x 1 x 2 x 1 = 140/s against 100/s, never drains\n", args)
		assert.True(t, strings.HasSuffix(out, "never drains\n"), "%v: the chain's fluid view ends the output", args)
	}
	out, _, err := runArgs(t, "--policy", "fifo")
	require.NoError(t, err)
	assert.NotContains(t, out, "The chain", "a service alone has no chain")
}

// TestHopsRefused: a chain that does not read is one line naming --hops,
// the hop, the key and the fix, and a file's name and line.
func TestHopsRefused(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "chain.txt")
	require.NoError(t, os.WriteFile(bad, []byte("payments: workers=4 service_ms=50 timeout_ms=1000\nbank: workers=x\n"), 0o644))
	tests := []struct {
		args   []string
		want   string
		reason string
	}{
		{[]string{"--hops", "payments: workers=0 service_ms=50 timeout_ms=1000"},
			"--hops: hop 1 (payments): workers: 0 is out of range: use a whole number from 1 to 100,000",
			"a value out of range: the hop, its key and the range"},
		{[]string{"--hops", "payments: workers=4 service_ms=50"},
			"--hops: line 1, column 1: hop 1 (payments): give its timeout_ms=",
			"a key it needs: the line and the key"},
		{[]string{"--hops", bad},
			"--hops: " + bad + ": line 2, column 1: hop 2 (bank): workers: x is not a whole number",
			"from a file: its name and the line"},
		{[]string{"--hops", "nope.txt"},
			`--hops: cannot read "nope.txt": no such file or directory: give the hops themselves ` +
				"(payments: workers=4 service_ms=50 timeout_ms=1000) or the name of a file that holds them",
			"neither hops nor a file: both ways to give them"},
	}
	for _, tt := range tests {
		_, _, err := runArgs(t, tt.args...)
		require.Error(t, err, tt.reason)
		assert.Equal(t, tt.want, err.Error(), tt.reason)
	}
}

// TestChainSeries: --series prints every service's series, the entry's
// first, each under its name and its caller; with --csv, every service's
// rows, named in a column of their own, with the workers held for calls.
func TestChainSeries(t *testing.T) {
	out, _, err := runArgs(t, "--policy", "fifo", "--series", "--hops", chainText)
	require.NoError(t, err)
	entry := strings.Index(out, "checkout (entry), which the people call:")
	payments := strings.Index(out, "payments, which checkout (entry) calls:")
	bank := strings.Index(out, "bank, which payments calls:")
	assert.True(t, entry == 0 && payments > entry && bank > payments, "the entry's series, then each hop's in order:\n%s", out)
	assert.Equal(t, 3, strings.Count(out, "Step "), "a table for each service")

	csvOut, _, err := runArgs(t, "--policy", "fifo", "--series", "--csv", "--hops", chainText)
	require.NoError(t, err)
	lines := strings.Split(strings.TrimSpace(csvOut), "\n")
	header := strings.Split(lines[0], ",")
	require.Equal(t, []string{"busy_calling", "service"}, header[len(header)-2:])
	rows := map[string]int{}
	calling := map[string]bool{}
	for _, l := range lines[1:] {
		f := strings.Split(l, ",")
		rows[f[len(f)-1]]++
		if f[len(f)-2] != "0" {
			calling[f[len(f)-1]] = true
		}
	}
	assert.Equal(t, rows["checkout (entry)"], rows["payments"], "a row a step for each service")
	assert.Equal(t, rows["checkout (entry)"], rows["bank"])
	assert.Positive(t, rows["bank"])
	assert.True(t, calling["checkout (entry)"] && calling["payments"], "the entry and payments hold workers for calls")
	assert.False(t, calling["bank"], "the bank calls no one")

	plain, _, err := runArgs(t, "--policy", "fifo", "--series", "--csv")
	require.NoError(t, err)
	assert.NotContains(t, strings.SplitN(plain, "\n", 2)[0], "service", "a service alone keeps its columns")
}
