package sim

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestTiesInOrder: events due in the same nanosecond follow rule 1's
// order, timeouts, then the service's own events, then arrivals, in the
// event loop (an event scheduled for the nanosecond it is scheduled in
// comes after the one that scheduled it), and the arrival-order path follows it too, so it computes runs
// full of ties without handing them back. Arrivals 10 µs apart on
// average, to workers busy half the time or nine tenths of it, meet a
// worker finishing as one arrives, to the nanosecond, within the run for
// any seed.
func TestTiesInOrder(t *testing.T) {
	rank := map[string]int{"timeout": 0, "service done": 1, "refusal done": 1, "arrival": 2, "retry": 2}
	ties := 0
	for _, busy := range []struct {
		workers int
		rps     float64
	}{{1, 50_000}, {8, 90_000}} {
		for seed := uint64(1); seed <= 5; seed++ {
			c := DefaultConfig()
			c.Workers, c.ServiceMS, c.NormalRPS, c.SaleRPS, c.Seed = busy.workers, 0.01*float64(busy.workers), busy.rps, busy.rps, seed
			c.DurationS, c.SaleStartS, c.SaleS = 20, 0, 10
			what := fmt.Sprintf("%d workers at %.0f a second, seed %d", busy.workers, busy.rps, seed)

			e := newEngine(c, nil)
			lastAt, lastRank := int64(-1), 0
			e.trace = func(at int64, what string, a *attempt) {
				r, ok := rank[what]
				if !ok || what == "service done" && a.t0 == at {
					return // a service of 0 ns, scheduled by its own arrival: after it
				}
				if at == lastAt {
					if r != lastRank {
						ties++
					}
					assert.GreaterOrEqual(t, r, lastRank, "%s: at %d ns, a %s after an event of rank %d", what, at, what, lastRank)
				}
				lastAt, lastRank = at, r
			}
			e.loop()
			want := e.result()

			got, ok := arrivalOrderResult(c)
			if assert.True(t, ok, "%s: the arrival-order path declines it", what) {
				assert.Equal(t, want, got, "%s: the arrival-order path differs from the event loop", what)
			}
		}
	}
	// Retries made in the same nanosecond as others, or as a new
	// person's arrival is drawn: refusals at a bound of 1, timeouts a
	// whole number of retry delays long, with and without jitter.
	for _, p := range []Policy{FIFO, Bounded, CoDel, Skip} {
		for _, jitter := range []float64{0, 0.01} {
			c := DefaultConfig()
			c.Policy, c.Queue, c.Workers, c.ServiceMS = p, 1, 1, 0.01
			c.NormalRPS, c.SaleRPS, c.DurationS, c.SaleStartS, c.SaleS = 50_000, 90_000, 10, 0, 5
			c.TimeoutMS, c.Retries, c.RetryDelayMS, c.RetryJitterMS = 0.02, 3, 0.01, jitter
			c.CoDelTargetMS, c.CoDelIntervalMS = 0.005, 0.1
			what := fmt.Sprintf("%s with retries, jitter %v ms", p, jitter)
			want := eventLoopResult(c)
			got, ok := arrivalOrderResult(c)
			if assert.True(t, ok, "%s: the arrival-order path declines it", what) {
				assert.Equal(t, want, got, "%s: the arrival-order path differs from the event loop", what)
			}
		}
	}
	assert.Positive(t, ties, "the runs meet events of different ranks in the same nanosecond")
	t.Logf("%d ties between ranks", ties)
}
