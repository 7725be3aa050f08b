package sim

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestProxyBudgetEnvoyByHand walks Envoy's retry_budget (20%, at least 3)
// around its two edges.
func TestProxyBudgetEnvoyByHand(t *testing.T) {
	p, _ := ProxyPreset("envoy")
	p.Budget = EnvoyBudget
	b := p.newBudget().(*envoyBudget)

	// 35 first tries out; they fail one by one, each asking for a retry.
	// Tries out after each failure and the limit, trunc(0.2 x out) or 3:
	// 34: 6 (6.8), 33: 6, 32: 6, 31: 6, 30: 6, 29: 5 (5.8). The retries
	// counted before asking are 0, 1, 2, 3, 4, 5: the sixth is refused,
	// 5 is not under 5.
	for i := 0; i < 35; i++ {
		b.sent(0, false)
	}
	var got []bool
	for i := 0; i < 6; i++ {
		b.ended(1, false, tryRefused)
		got = append(got, b.allow(1))
	}
	assert.Equal(t, []bool{true, true, true, true, true, false}, got)
	assert.Equal(t, int64(29), b.active)
	assert.Equal(t, int64(5), b.retries)

	// A retry goes out: 30 out, the limit 6 again, so one more may wait.
	b.sent(2, true)
	assert.True(t, b.allow(2), "30 out: limit 6, 5 counted")
	// That retry is answered: 29 out, limit 5, and the 5 waiting still count.
	b.ended(3, true, tryAnswered)
	assert.False(t, b.allow(3), "29 out: limit 5, 5 counted")
	// One given up in its backoff (the call's deadline passed): 4 counted.
	b.ended(4, true, tryUnsent)
	assert.Equal(t, int64(29), b.active, "an unsent retry was never out")
	assert.True(t, b.allow(4))

	// The floor: with 4 tries out, 20% is under 1, so the limit is 3.
	// Out after each failure: 3, 2, 1, 0; the fourth retry is refused.
	c := newEnvoyBudget(20, 3)
	for i := 0; i < 4; i++ {
		c.sent(0, false)
	}
	got = got[:0]
	for i := 0; i < 4; i++ {
		c.ended(1, false, tryTimedOut)
		got = append(got, c.allow(1))
	}
	assert.Equal(t, []bool{true, true, true, false}, got, "at least min_retry_concurrency")

	// Fifteen out: 0.2 x 15 rounds to exactly 3 in doubles: trunc 3.
	assert.Equal(t, int64(3), (&envoyBudget{percent: 20, least: 0, active: 15}).limit())
	assert.Equal(t, int64(6), (&envoyBudget{percent: 20, least: 3, active: 30}).limit())
	assert.Equal(t, int64(25), (&envoyBudget{percent: 25, least: 3, active: 100}).limit(), "the proto's example: 100 active at 25% allow 25")
}

// TestProxyBudgetEnvoyMaxRetriesByHand walks Envoy's default, the
// max_retries circuit breaker (3 at once), which ignores the tries out.
func TestProxyBudgetEnvoyMaxRetriesByHand(t *testing.T) {
	p, _ := ProxyPreset("envoy")
	b := p.newBudget().(*envoyBudget)
	for i := 0; i < 100; i++ {
		b.sent(0, false)
	}
	var got []bool
	for i := 0; i < 5; i++ {
		b.ended(1, false, tryRefused)
		got = append(got, b.allow(1))
	}
	assert.Equal(t, []bool{true, true, true, false, false}, got, "3 at once, however many are out")
	b.sent(2, true)
	b.ended(3, true, tryRefused)
	assert.True(t, b.allow(3), "the retry's try ended: 2 counted, so one more")
	assert.False(t, b.allow(3))
}

// TestProxyBudgetEnvoyBound checks, over random sequences, that at every
// allow the retries counted (allowed, not yet ended) never exceed
// max(percent x the tries out, min_retry_concurrency), and that a retry is
// refused only when one more would exceed it.
func TestProxyBudgetEnvoyBound(t *testing.T) {
	s := newStream(42, streamJitter)
	for run := 0; run < 200; run++ {
		percent := []float64{0, 5, 20, 33.3, 100}[s.Uint64()%5]
		least := int(s.Uint64() % 5)
		if percent == 0 && least == 0 {
			least = 1
		}
		b := newEnvoyBudget(percent, least)
		var out []bool // tries out: retry or not
		waiting := 0   // retries allowed, not yet sent
		counted := 0
		now := int64(0)
		for step := 0; step < 400; step++ {
			now += int64(s.Uint64() % 1000)
			switch r := s.Uint64() % 10; {
			case r < 3:
				b.sent(now, false)
				out = append(out, false)
			case r < 6 && len(out) > 0:
				i := int(s.Uint64() % uint64(len(out)))
				retry := out[i]
				out = append(out[:i], out[i+1:]...)
				end := []tryEnd{tryRefused, tryTimedOut, tryAnswered, tryAbandoned}[s.Uint64()%4]
				b.ended(now, retry, end)
				if retry {
					counted--
				}
				if end == tryRefused || end == tryTimedOut {
					limit := max(percent/100*float64(len(out)), float64(least))
					if b.allow(now) {
						waiting++
						counted++
						require.LessOrEqual(t, float64(counted), limit, "allowed over the limit")
					} else {
						require.Greater(t, float64(counted+1), limit, "refused under the limit")
					}
				}
			case r < 8 && waiting > 0:
				waiting--
				b.sent(now, true)
				out = append(out, true)
			case r < 9 && waiting > 0:
				waiting--
				counted--
				b.ended(now, true, tryUnsent)
			}
			require.Equal(t, int64(counted), b.retries)
			require.Equal(t, int64(len(out)), b.active)
		}
	}
}

func TestProxyBudgetEnvoyPanicsOnBrokenInvariant(t *testing.T) {
	b := newEnvoyBudget(20, 3)
	assert.Panics(t, func() { b.ended(0, false, tryAnswered) }, "an end with nothing sent")
}
