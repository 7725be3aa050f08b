package sim

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestRecoveryAtTheRunsEdge checks rule 17 where the run ends: people still
// in flight are not held against a window, and a window with nobody settled
// proves nothing either way.
func TestRecoveryAtTheRunsEdge(t *testing.T) {
	cases := []struct {
		reason   string
		change   func(*Config)
		back     *float64
		recovery Recovery
	}{
		{"a 0.1 s last window of people still in flight does not undo recovery",
			func(c *Config) { c.DurationS = 300.1 }, ptr(90), Normal},
		{"a stuck run is not back because its last, partial window has nobody settled",
			func(c *Config) { c.DurationS, c.Retries = 291, 3 }, nil, Stuck},
		{"a bounded queue that refuses all day holds no abandoned work: overloaded, not stuck",
			func(c *Config) { c.Policy, c.NormalRPS = Bounded, 120 }, nil, Overloaded},
	}
	for _, tc := range cases {
		c := DefaultConfig()
		tc.change(&c)
		r, err := Run(c)
		require.NoError(t, err)
		assert.Equal(t, tc.recovery, r.Recovery, tc.reason)
		if tc.back == nil {
			assert.Nil(t, r.BackToNormalS, tc.reason)
		} else if assert.NotNil(t, r.BackToNormalS, tc.reason) {
			assert.Equal(t, *tc.back, *r.BackToNormalS, tc.reason)
		}
	}
}

func ptr(x float64) *float64 { return &x }
