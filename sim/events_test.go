package sim

import (
	"bytes"
	"encoding/json"
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestGoldenEvents pins the first events of seed 1, in order, with their
// times to the nanosecond: the shop's default run, and a small busy service
// whose first second already has queueing, refusals that cost work,
// timeouts and retries. A change to the engine's ordering of events shows
// here even when it leaves the summary numbers alone.
func TestGoldenEvents(t *testing.T) {
	busy := DefaultConfig()
	busy.Policy, busy.Workers, busy.Queue, busy.Retries = Bounded, 2, 3, 1
	busy.TimeoutMS, busy.RetryDelayMS, busy.RefusalCostMS, busy.ServiceMS = 300, 100, 5, 60
	cases := []struct {
		name string
		c    Config
		n    int
	}{
		{"events-seed1-default.txt", DefaultConfig(), 40},
		{"events-seed1-busy.txt", busy, 80},
	}
	for _, tc := range cases {
		var b bytes.Buffer
		// The Config as JSON, whose omitempty fields (the incidents and
		// the rest added since) leave this line alone at their defaults.
		cj, err := json.Marshal(tc.c)
		if err != nil {
			t.Fatal(err)
		}
		fmt.Fprintf(&b, "The first %d events of %s\n", tc.n, cj)
		e := newEngine(tc.c, nil)
		seen := 0
		e.trace = func(at int64, what string, a *attempt) {
			seen++
			if seen > tc.n {
				return
			}
			fmt.Fprintf(&b, "%3d %15d ns  %-13s", seen, at, what)
			if a != nil {
				kind := "preview"
				if a.order {
					kind = "order"
				}
				fmt.Fprintf(&b, " the %s of %d ns, try %d", kind, a.first, a.try)
			}
			b.WriteString("\n")
		}
		e.loop()
		golden(t, tc.name, b.Bytes())
	}
}

// TestTraceOnlyListens holds a traced run to the same Result as the run
// without a trace. The loop handles some events differently while a trace
// listens: every timeout is an event heard at its own time, where without
// one a timeout whose client has heard back is let go of early
// (dropCancelledTimeouts), and new people and services ending go one at a
// time through handleOwnTraced rather than untilSoonest.
func TestTraceOnlyListens(t *testing.T) {
	with := func(f func(*Config)) Config {
		c := DefaultConfig()
		f(&c)
		return c
	}
	cases := []struct {
		reason string
		c      Config
	}{
		{"lifo with 3 retries: nearly every timeout's client has heard back", with(func(c *Config) { c.Policy, c.Retries = LIFO, 3 })},
		{"priority with 3 retries at a sale of 200/s", with(func(c *Config) { c.Policy, c.Retries, c.SaleRPS = Priority, 3, 200 })},
		{"the unbounded queue with 3 retries: the timeouts are real", with(func(c *Config) { c.Retries = 3 })},
		{"codel with 5 ms refusals and the ratio client", with(func(c *Config) { c.Policy, c.Retries, c.RefusalCostMS, c.Client = CoDel, 2, 5, Ratio })},
		{"a bounded queue with backoff, patience and a loss of workers", with(func(c *Config) {
			c.Policy, c.Retries, c.Client = Bounded, 3, Backoff
			c.Patience, c.PatienceMS = ExponentialPatience, 1500
			c.LossWorkers, c.LossStartS, c.LossS = 3, 90, 30
		})},
	}
	for _, tc := range cases {
		require.NoError(t, tc.c.Validate(), tc.reason)
		traced := newEngine(tc.c, nil)
		heard := 0
		traced.trace = func(int64, string, *attempt) { heard++ }
		traced.loop()
		require.Greater(t, heard, 10000, "%s: the trace heard the run", tc.reason)
		assert.Equal(t, eventLoopResult(tc.c), traced.result(), tc.reason)
	}
}
