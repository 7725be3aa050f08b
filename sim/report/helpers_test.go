package report_test

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/shedsim/shedsim/sim"
)

// update rewrites the golden files instead of comparing with them:
//
//	go test ./sim/report -update
var update = flag.Bool("update", false, "rewrite the golden files in testdata instead of comparing with them")

// golden compares got with testdata/name, or writes it there with -update.
// The path is relative to the package directory, which is go test's
// working directory natively, under Node (GOOS=js GOARCH=wasm) and under
// qemu, so the same files are compared byte for byte on every platform.
func golden(t *testing.T, name string, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		require.NoError(t, os.MkdirAll(filepath.Dir(path), 0o755))
		require.NoError(t, os.WriteFile(path, got, 0o644))
		return
	}
	want, err := os.ReadFile(path)
	require.NoError(t, err, "missing golden file: run go test ./sim/report -update")
	if !bytes.Equal(want, got) {
		// assert.Equal on strings prints a line diff (-want +got).
		assert.Equal(t, string(want), string(got),
			"%s differs; if the change is intended, run go test ./sim/report -update and review the diff", path)
	}
}

// shop is the default Config with changes applied.
func shop(changes ...func(*sim.Config)) sim.Config {
	c := sim.DefaultConfig()
	for _, f := range changes {
		f(&c)
	}
	return c
}

func policy(p sim.Policy) func(*sim.Config) { return func(c *sim.Config) { c.Policy = p } }
func retries(n int) func(*sim.Config)       { return func(c *sim.Config) { c.Retries = n } }
func client(cl sim.Client) func(*sim.Config) {
	return func(c *sim.Config) { c.Client = cl }
}
func queue(n int) func(*sim.Config)            { return func(c *sim.Config) { c.Queue = n } }
func saleRPS(x float64) func(*sim.Config)      { return func(c *sim.Config) { c.SaleRPS = x } }
func normalRPS(x float64) func(*sim.Config)    { return func(c *sim.Config) { c.NormalRPS = x } }
func refusalCost(ms float64) func(*sim.Config) { return func(c *sim.Config) { c.RefusalCostMS = ms } }
func codelInterval(ms float64) func(*sim.Config) {
	return func(c *sim.Config) { c.CoDelIntervalMS = ms }
}

// The engine is deterministic, so runs are cached: several tests look at
// the same Configs, and the Node and qemu runs are slow.
var (
	cacheMu sync.Mutex
	runs    = map[sim.Config]sim.Result{}
)

// run is sim.Run, cached, failing the test on an error.
func run(t *testing.T, c sim.Config) sim.Result {
	t.Helper()
	cacheMu.Lock()
	r, ok := runs[c]
	cacheMu.Unlock()
	if ok {
		return r
	}
	r, err := sim.Run(c)
	require.NoError(t, err)
	cacheMu.Lock()
	runs[c] = r
	cacheMu.Unlock()
	return r
}

// compare is c run under every policy, in the order of sim.Policies,
// through the run cache.
func compare(t *testing.T, c sim.Config) []sim.Result {
	t.Helper()
	var rs []sim.Result
	for _, p := range sim.Policies {
		d := c
		d.Policy = p
		rs = append(rs, run(t, d))
	}
	return rs
}

// errWriter fails every write.
type errWriter struct{}

var errWrite = os.ErrClosed

func (errWriter) Write([]byte) (int, error) { return 0, errWrite }
