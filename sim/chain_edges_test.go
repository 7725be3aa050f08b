package sim

import (
	"encoding/json"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The edges of a chain a review found (rules 40 to 43), each held here.

// TestChainCallTimeoutValidated: a hop's own timeout_ms is checked even
// when a per-try timeout runs in its place, so none reaches the clock
// unchecked.
func TestChainCallTimeoutValidated(t *testing.T) {
	for _, timeout := range []string{"-5", "0", "1e300", "1e13"} {
		c := DefaultConfig()
		c.Hops = "a: workers=4 service_ms=50 timeout_ms=" + timeout + " per_try_timeout_ms=100"
		err := c.Validate()
		require.Error(t, err, timeout)
		assert.Contains(t, err.Error(), "hop 1 (a): timeout_ms: ", timeout)
	}
}

// TestChainFirstTryAtCallDeadline: a try that runs into its call's own
// deadline, with no per-try timeout, ends the call (gave up, abandoned):
// the proxy does not ask for, count or schedule a retry of it.
func TestChainFirstTryAtCallDeadline(t *testing.T) {
	c := DefaultConfig()
	c.DurationS, c.SaleStartS, c.SaleS = 60, 5, 10
	c.Workers, c.ServiceMS = 50, 10
	c.Hops = "slow: workers=1 service_ms=500 timeout_ms=200 proxy=linkerd"
	ends := map[tryEnd]int{}
	r := runListened(t, c, 1, &listener{endedAt: func(_ int64, _ bool, end tryEnd) { ends[end]++ }})
	h := r.Hops[0].Result
	assert.Zero(t, h.Client.Retries)
	assert.Zero(t, ends[tryTimedOut], "no per-try timeout, no try timed out by it")
	assert.Positive(t, ends[tryAbandoned])
	var timedOut, gaveUp int
	for _, w := range h.Windows {
		timedOut += w.TimedOut
		gaveUp += w.GaveUp
	}
	assert.Equal(t, timedOut, gaveUp, "every call that timed out did so by its own deadline")
}

// TestChainLinkerdMostTries: the attempt budget's count of a Linkerd
// proxy's tries bounds what it sends, whatever its ratio, so that Validate
// holds a chain to MaxAttempts.
func TestChainLinkerdMostTries(t *testing.T) {
	for _, proxy := range []string{"proxy=linkerd", "proxy=linkerd retry_ratio=2", "proxy=linkerd retry_ratio=1000", "proxy=linkerd retry_ratio=0.001"} {
		c := DefaultConfig()
		c.NormalRPS, c.SaleRPS, c.DurationS, c.SaleStartS, c.SaleS = 50, 50, 60, 0, 0
		c.Workers, c.ServiceMS = 200, 5
		c.Hops = "api: workers=200 service_ms=1 timeout_ms=10000 errors=0.9 " + proxy
		r, err := Run(c)
		require.NoError(t, err)
		total := r.Attempts + r.Hops[0].Result.Attempts
		assert.LessOrEqual(t, float64(total), c.ExpectedAttempts(), proxy)
	}
}

// TestChainHopSaleWindow: a call is the sale's when the entry's person
// would be, for a sale in waves and for an incident that triggers the run
// too: with one call a person, the hop counts the entry's sale people.
func TestChainHopSaleWindow(t *testing.T) {
	for _, name := range []string{"plain", "waves", "ramp", "loss"} {
		c := DefaultConfig()
		c.DurationS, c.SaleStartS, c.SaleS = 300, 20, 30
		c.Workers, c.ServiceMS = 400, 5
		switch name {
		case "waves":
			c.SaleWaves, c.SaleEveryS = 3, 60
		case "ramp":
			c.SaleRampS = 10
		case "loss":
			c.SaleRPS = c.NormalRPS
			c.LossWorkers, c.LossStartS, c.LossS = 100, 100, 60
		}
		c.Hops = "a: workers=400 service_ms=5 timeout_ms=1000"
		r, err := Run(c)
		require.NoError(t, err)
		// a call is made a few ms after its person arrives, so a person at
		// a window's very end may call just after it: a few a window's end
		assert.InDelta(t, r.Sale.People, r.Hops[0].Result.Sale.People, 15, name)
	}
}

// TestChainEmptyIsAlone: hops text with no hop in it (comments, blank
// lines) is the service alone, to the byte.
func TestChainEmptyIsAlone(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	ran := 0
	for range 60 {
		c := DefaultConfig()
		c.DurationS = 150
		c.Workers, c.Retries = 2+rng.IntN(20), rng.IntN(3)
		c.Policy, c.Client = Policies[rng.IntN(len(Policies))], Clients[rng.IntN(len(Clients))]
		c.Seed, c.SaleRPS = rng.Uint64N(1000), float64(50+rng.IntN(300))
		if c.Validate() != nil {
			continue
		}
		alone, err := Run(c)
		require.NoError(t, err)
		c.Hops = "# no hops\n\n"
		empty, err := Run(c)
		require.NoError(t, err)
		empty.Config.Hops = ""
		a, _ := json.Marshal(alone)
		b, _ := json.Marshal(empty)
		require.Equal(t, string(a), string(b))
		ran++
	}
	assert.Greater(t, ran, 20)
}
