//go:build !js

package sim

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestArrivalOrderOnParityConfigs runs the parity tool (tools/parity) for
// its random Configs. For each one the arrival-order path takes, the line
// it printed (sim.Run's Result as JSON) must be the event loop's Result,
// byte for byte; each one within the path's domain (intoArrivalOrder) must
// give the same Result both ways. It runs the tool
// rather than copy its generator, so that the Configs are the tool's as they
// change. Natively only: under js/wasm a test cannot start a program.
func TestArrivalOrderOnParityConfigs(t *testing.T) {
	goTool, err := exec.LookPath("go")
	require.NoError(t, err, "the go command runs the parity tool: put Go's bin directory on PATH")
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, goTool, "run", "./tools/parity", "-only", "random")
	cmd.Dir = filepath.Join("..")
	// The tool runs here, so it is built for this machine, even when this
	// test was built for another (GOARCH=arm64 under qemu).
	cmd.Env = append(os.Environ(), "GOOS=", "GOARCH=")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	require.NoError(t, err, "go run ./tools/parity: %s", stderr.String())

	lines, taken, projected := 0, 0, 0
	sc := bufio.NewScanner(bytes.NewReader(out))
	sc.Buffer(nil, 64<<20)
	for sc.Scan() {
		label, printed, ok := bytes.Cut(sc.Bytes(), []byte(" "))
		require.True(t, ok, "a parity line is a label, a space and JSON: %.80s", sc.Text())
		lines++
		var r Result
		require.NoError(t, json.Unmarshal(printed, &r), "%s", label)
		if arrivalOrderTakes(r.Config) {
			taken++
			want, err := json.Marshal(eventLoopResult(r.Config))
			require.NoError(t, err)
			assert.Equal(t, string(want), string(printed), "%s: the parity tool printed a Result the event loop does not give (-event loop +printed)", label)
		}
		// Most of the tool's Configs set something the path declines (a
		// client, jitter, a series, an incident): the same draws, within
		// the path's domain, are compared too.
		c := intoArrivalOrder(r.Config)
		if sameByBothPaths(t, string(label)+" within the arrival-order path's domain", c) {
			projected++
		}
	}
	require.NoError(t, sc.Err())
	require.Positive(t, lines, "the parity tool printed its random set")
	assert.Greater(t, projected, lines/2, "the arrival-order path computes most of the parity tool's Configs within its domain")
	t.Logf("of the parity tool's %d random Configs, %d taken as they are, %d computed within the domain, each the event loop's to the byte", lines, taken, projected)
}

// intoArrivalOrder is c within the arrival-order path's domain: the
// fields it takes (arrivalOrderFields) kept, every other at its default,
// lifo as codel and priority as the bounded queue, refusals free, and a
// client that keeps a history as the post's fixed one.
func intoArrivalOrder(c Config) Config {
	out := DefaultConfig()
	from, to := reflect.ValueOf(c), reflect.ValueOf(&out).Elem()
	for _, name := range arrivalOrderFields {
		to.FieldByName(name).Set(from.FieldByName(name))
	}
	switch out.Policy {
	case LIFO:
		out.Policy = CoDel
	case Priority:
		out.Policy = Bounded
	}
	if out.Policy == Bounded || out.Policy == CoDel {
		out.RefusalCostMS = 0
	}
	switch {
	case out.Client == Backoff:
	case out.Client == RetryAfter && out.Policy != CoDel:
	default: // the clients that keep a history, as the post's
		out.Client = Fixed
	}
	return out
}
