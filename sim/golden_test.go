package sim

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// update rewrites the golden files instead of comparing with them:
//
//	go test ./sim -run Golden -update
var update = flag.Bool("update", false, "rewrite the golden files in testdata/golden instead of comparing with them")

// The golden files pin the engine's output to the byte. The same files must
// match natively, under Node (GOOS=js GOARCH=wasm) and on arm64, so they
// are compared byte for byte and found relative to the package directory,
// which is go test's working directory on every platform.

// golden compares got with testdata/golden/name, or writes it there with
// -update.
func golden(t *testing.T, name string, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", "golden", name)
	if *update {
		require.NoError(t, os.MkdirAll(filepath.Dir(path), 0o755))
		require.NoError(t, os.WriteFile(path, got, 0o644))
		return
	}
	want, err := os.ReadFile(path)
	require.NoError(t, err, "missing golden file: run go test ./sim -run Golden -update")
	if !bytes.Equal(want, got) {
		// assert.Equal on strings prints a line diff (-want +got).
		assert.Equal(t, string(want), string(got),
			"%s differs from the engine's output; if the change is intended, run go test ./sim -run Golden -update and review the diff", path)
	}
}

// goldenConfigs are the Configs whose Results the golden files pin.
var goldenConfigs = []struct {
	file   string
	reason string
	config Config
}{
	{"result-default.json", "the post's sale into the unbounded queue, seed 1", DefaultConfig()},
	{"result-bounded-retries-jitter.json", "the bounded queue with 3 retries and 500 ms of jitter: exercises the retry and jitter streams",
		shop(Bounded, withRetries(3), withJitter(500))},
	{"result-codel-refusal-cost.json", "the queue timeout with a 20 ms refusal: exercises the refusal line",
		shop(CoDel, withRefusal(20))},
	{"result-lifo-retries.json", "adaptive LIFO with one retry: exercises taking the newest",
		shop(LIFO, withRetries(1))},
	{"result-priority.json", "priority for orders: exercises the two lines of the queue",
		shop(Priority)},
	{"result-chain-envoy-budget.json", "three hops with Envoy's retry budget: exercises the chain, per-try timeouts, backoff and a budget (rules 40 to 42)",
		sampleConfig("chain-envoy-budget")},
}

// sampleConfig is the Config of the sample named key.
func sampleConfig(key string) Config {
	s, ok := SampleByKey(key)
	if !ok {
		panic("no sample " + key)
	}
	return s.Config
}

func TestGoldenResults(t *testing.T) {
	tests := goldenConfigs
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			r, err := Run(tt.config)
			require.NoError(t, err, tt.reason)
			b, err := json.MarshalIndent(r, "", "  ")
			require.NoError(t, err)
			golden(t, tt.file, append(b, '\n'))
		})
	}
}

// TestGoldenStreams pins the first 20 draws of every random stream for
// seed 1, as raw bits and as exponential draws (which go through the
// portable logarithm). The engine has no event log; these draws are what
// its first events are made of.
func TestGoldenStreams(t *testing.T) {
	purposes := []struct {
		name    string
		purpose uint64
	}{
		{"arrivals", streamArrivals},
		{"orders", streamOrders},
		{"service", streamService},
		{"jitter", streamJitter},
		{"client", streamClient},
	}
	var b bytes.Buffer
	b.WriteString("# The first 20 draws of each random stream for seed 1: newStream(1, purpose).\n")
	b.WriteString("# uint64: Uint64 from a fresh stream. exp: ExpFloat64 from another fresh stream, as bits and value,\n")
	b.WriteString("# then a hash of the first 100,000 ExpFloat64 draws from a third.\n")
	for _, p := range purposes {
		fmt.Fprintf(&b, "\nstream %s (purpose %d)\n", p.name, p.purpose)
		s := newStream(1, p.purpose)
		for i := range 20 {
			fmt.Fprintf(&b, "uint64 %2d %#016x\n", i, s.Uint64())
		}
		s = newStream(1, p.purpose)
		for i := range 20 {
			x := s.ExpFloat64()
			fmt.Fprintf(&b, "exp    %2d %#016x %s\n", i, math.Float64bits(x), strconv.FormatFloat(x, 'g', -1, 64))
		}
		// Most exponential draws take the ziggurat's fast path; a long
		// run of them also takes its wedges and its tail, which use the
		// portable exp and log. A hash of the bits of 100,000 pins those.
		s = newStream(1, p.purpose)
		h := uint64(14695981039346656037) // FNV-1a over the 64-bit words
		for range 100_000 {
			h = (h ^ math.Float64bits(s.ExpFloat64())) * 1099511628211
		}
		fmt.Fprintf(&b, "exp 100000 draws, FNV-1a of the bits: %#016x\n", h)
	}
	golden(t, "streams-seed1.txt", b.Bytes())
}

// TestStreamsIndependent: different purposes and different seeds give
// different sequences, and Float64 is Uint64's top 53 bits.
func TestStreamsIndependent(t *testing.T) {
	a, b, c := newStream(1, streamArrivals), newStream(1, streamService), newStream(2, streamArrivals)
	x, y, z := a.Uint64(), b.Uint64(), c.Uint64()
	assert.NotEqual(t, x, y, "purposes differ")
	assert.NotEqual(t, x, z, "seeds differ")
	s1, s2 := newStream(3, streamOrders), newStream(3, streamOrders)
	for range 1000 {
		u := s1.Uint64()
		f := s2.Float64()
		assert.Equal(t, float64(u>>11)*0x1p-53, f)
		assert.True(t, f >= 0 && f < 1)
	}
	e := newStream(4, streamService)
	var sum float64
	const n = 100_000
	for range n {
		v := e.ExpFloat64()
		require.True(t, v >= 0 && !math.IsInf(v, 0), "an exponential draw is finite and not negative: %v", v)
		sum += v
	}
	// The mean of n unit exponentials has standard error 1/sqrt(n).
	assert.InDelta(t, 1, sum/n, 4/math.Sqrt(n), "ExpFloat64 has mean 1")
}
