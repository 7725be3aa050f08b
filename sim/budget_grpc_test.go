package sim

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestProxyBudgetGRPCByHand walks A6's throttle with its example's 10
// tokens and 0.1 a success: a retryable failure takes a token first, then
// a retry needs more than 10 / 2 = 5.
func TestProxyBudgetGRPCByHand(t *testing.T) {
	p, _ := ProxyPreset("grpc")
	b := p.newBudget().(*grpcThrottle)
	// Every try fails: tokens after each failure 9, 8, 7, 6 (over 5:
	// retried), 5 (not over 5: the first not retried), 4, ...
	var got []bool
	for i := 0; i < 7; i++ {
		b.sent(0, i > 0)
		b.ended(0, i > 0, tryRefused)
		got = append(got, b.allow(0))
	}
	assert.Equal(t, []bool{true, true, true, true, false, false, false}, got, "the 5th failure in a row is the first not retried")
	assert.Equal(t, int64(3000), b.milli)

	// Down to 0 and no further.
	for i := 0; i < 5; i++ {
		b.ended(0, false, tryRefused)
	}
	assert.Equal(t, int64(0), b.milli)
	// 50 successes: 5.0 tokens, not over 5.
	for i := 0; i < 50; i++ {
		b.ended(0, false, tryAnswered)
	}
	assert.False(t, b.allow(0), "5.0 is not over 5")
	// Ten more: 6.0; a failure takes it to 5.0: not retried.
	for i := 0; i < 10; i++ {
		b.ended(0, false, tryAnswered)
	}
	b.ended(0, false, tryRefused)
	assert.False(t, b.allow(0), "6.0 - 1 = 5.0")
	// Eleven more: 6.1; a failure: 5.1, retried.
	for i := 0; i < 11; i++ {
		b.ended(0, false, tryAnswered)
	}
	b.ended(0, false, tryRefused)
	assert.True(t, b.allow(0), "6.1 - 1 = 5.1")
	// Successes stop at 10.
	for i := 0; i < 100; i++ {
		b.ended(0, false, tryAnswered)
	}
	assert.Equal(t, int64(10_000), b.milli)

	// Only what the proxy retries counts as a failure: with
	// retry_on=refusals a per-try timeout takes nothing, nor does a call
	// given up at its deadline.
	b.ended(0, false, tryTimedOut)
	b.ended(0, false, tryAbandoned)
	b.ended(0, true, tryUnsent)
	assert.Equal(t, int64(10_000), b.milli)

	assert.Equal(t, int64(100), grpcMilli(0.1))
	assert.Equal(t, int64(290), grpcMilli(0.29), "0.29 x 1000 is 289.99999999999997 in binary")
	assert.Equal(t, int64(546), grpcMilli(0.5466), "A6: 0.5466 is treated as 0.546")
}

// TestProxyBudgetGRPCSteadyFailures runs calls of up to 4 tries (A6's
// example) through the throttle, each try failing with probability p. A
// try's expected change in tokens is 0.1 (1 - p) - p, positive while p <
// 0.1 / 1.1 = 9.09%: the tokens stay near 10 and failures are retried; over
// it they sink to 0 and a failure is retried only after the tokens climb
// back over 6, which they almost never do.
func TestProxyBudgetGRPCSteadyFailures(t *testing.T) {
	share := func(p float64) float64 {
		proxy, _ := ProxyPreset("grpc")
		b := proxy.newBudget()
		s := newStream(44, streamJitter)
		failed, retried := 0, 0
		for call := 0; call < 20_000; call++ {
			for try := 0; try <= proxy.Retries; try++ {
				b.sent(0, try > 0)
				if s.Float64() >= p {
					b.ended(0, try > 0, tryAnswered)
					break
				}
				b.ended(0, try > 0, tryRefused)
				if try == proxy.Retries {
					break
				}
				failed++
				if !b.allow(0) {
					break
				}
				retried++
			}
		}
		return float64(retried) / float64(failed)
	}
	assert.Greater(t, share(0.05), 0.95, "5%: under 9.09%, failures are retried")
	assert.Less(t, share(0.15), 0.01, "15%: over 9.09%, almost none are")
}
