//go:build !(js && wasm)

package sim

import (
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestOnEnginesRaisesAPanic checks that a run's panic on another goroutine
// reaches the caller, with the value and the stack of the run that broke,
// after every engine has returned.
func TestOnEnginesRaisesAPanic(t *testing.T) {
	var calls, returned atomic.Int64
	defer func() {
		p, ok := recover().(*RunPanic)
		require.True(t, ok, "onEngines panics with a *RunPanic")
		assert.Equal(t, "sim: an invariant broke", p.Value)
		assert.Contains(t, p.Stack, "brokenRun", "the stack is the broken run's")
		assert.Contains(t, p.Error(), "sim: an invariant broke")
		assert.Equal(t, int64(3), calls.Load(), "every engine ran")
		assert.Equal(t, int64(2), returned.Load(), "the other engines returned first")
	}()
	onEngines(3, func() {
		if calls.Add(1) == 2 {
			brokenRun()
		}
		returned.Add(1)
	})
	t.Fatal("onEngines returned")
}

func brokenRun() { panic("sim: an invariant broke") }
