package sim

import (
	"bytes"
	"encoding/json"
	"fmt"
	"testing"
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
