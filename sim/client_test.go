package sim

import (
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestParseClient(t *testing.T) {
	for _, c := range Clients {
		got, err := ParseClient(" " + c.String() + " ")
		require.NoError(t, err)
		assert.Equal(t, c, got, "every client parses from its key")
		b, err := c.MarshalText()
		require.NoError(t, err)
		var back Client
		require.NoError(t, back.UnmarshalText(b))
		assert.Equal(t, c, back, "text round trip")
	}
	_, err := ParseClient("polite")
	assert.ErrorContains(t, err, "fixed, backoff, budget, ratio, retry-after, throttle", "the error lists the choices")
}

// TestThrottleProbability checks the SRE book's formula, case by case.
func TestThrottleProbability(t *testing.T) {
	cases := []struct {
		reason            string
		requests, accepts float64
		k, want           float64
	}{
		{"nothing sent yet: never refuse", 0, 0, 2, 0},
		{"everything accepted: never refuse", 1000, 1000, 2, 0},
		{"half accepted with K=2: requests = K x accepts, never refuse", 1000, 500, 2, 0},
		{"a third accepted with K=2", 900, 300, 2, 300.0 / 901},
		{"nothing accepted: refuse all but 1/(requests+1)", 99, 0, 2, 99.0 / 100},
		{"K=1 is stricter", 1000, 500, 1, 500.0 / 1001},
	}
	for _, tc := range cases {
		assert.InDelta(t, tc.want, throttleProbability(tc.requests, tc.accepts, tc.k), 1e-15, tc.reason)
	}
}

// TestBackoffCeiling checks the full-jitter bound min(cap, base x 2^(n-1))
// and, by drawing, that every backoff delay stays in [0, cap] and spreads
// over it: full jitter, not a fixed wait.
func TestBackoffCeiling(t *testing.T) {
	base, cap := 1e9, 20e9
	for n, want := range map[int32]float64{1: 1e9, 2: 2e9, 3: 4e9, 5: 16e9, 6: 20e9, 100: 20e9} {
		assert.Equal(t, want, backoffCeiling(base, cap, n), "retry %d", n)
	}
	c := DefaultConfig()
	c.Policy, c.Client, c.Retries = Bounded, Backoff, 8
	c.BackoffBaseMS, c.BackoffCapMS = 300, 900
	e := newEngine(c, nil)
	for try := int32(1); try <= 8; try++ {
		ceiling := backoffCeiling(300e6, 900e6, try)
		shortest, longest := math.Inf(1), 0.0
		for k := 0; k < 200; k++ {
			i := e.alloc()
			a := e.at(i)
			a.try, a.refs = try, 1
			e.retryOrSettle(a, refused)
			delay := nextScheduled(e) - e.now
			assert.True(t, delay >= 0 && float64(delay) < ceiling,
				"retry %d waited %d ns: outside [0, min(cap, base x 2^(n-1)))", try, delay)
			shortest, longest = min(shortest, float64(delay)), max(longest, float64(delay))
			e.release(i, a)
		}
		assert.Less(t, shortest, 0.1*ceiling, "retry %d: 200 full-jitter draws reach the bottom tenth", try)
		assert.Greater(t, longest, 0.9*ceiling, "retry %d: and the top tenth", try)
	}
}

// TestRetryAfterIsHonoured checks the hint: the time to drain the queue at
// full capacity in whole seconds, at least 1, and that a refused client
// waits at least that long, and less than a second more, spread over that
// second (jitter, so that the refused do not come back together).
func TestRetryAfterIsHonoured(t *testing.T) {
	c := DefaultConfig()
	c.Policy, c.Client, c.Retries, c.Queue = Bounded, RetryAfter, 3, 1000
	e := newEngine(c, nil)
	for _, waiting := range []int{0, 1, 100, 101, 250, 1000} {
		for e.queue.len() < waiting {
			i := e.alloc()
			e.at(i).refs = 1
			e.queue.push(i, false)
		}
		// 100/s of capacity: 250 waiting take 2.5 s, so the hint is 3 s.
		want := int64(max(1, math.Ceil(float64(waiting)/100))) * 1e9
		assert.Equal(t, want, e.retryAfter(), "%d waiting", waiting)
		shortest, longest := int64(math.MaxInt64), int64(0)
		for k := 0; k < 50; k++ {
			i := e.alloc()
			a := e.at(i)
			a.try, a.refs = 1, 1
			e.retryOrSettle(a, refused)
			d := nextScheduled(e) - e.now
			assert.True(t, d >= want && d < want+1e9, "%d waiting: a refused client waited %d ns, want [%d, %d)", waiting, d, want, want+1e9)
			shortest, longest = min(shortest, d), max(longest, d)
			e.release(i, a)
		}
		assert.Greater(t, longest-shortest, int64(0.5e9), "%d waiting: 50 refused clients spread over the second after the hint", waiting)
	}
	// A queue that would take longer than a day to drain says a day: the
	// hint never runs the clock past what int64 nanoseconds hold.
	slow := DefaultConfig()
	slow.Policy, slow.Client, slow.Retries, slow.Workers, slow.ServiceMS = Bounded, RetryAfter, 1, 1, maxMS
	big := newEngine(slow, nil)
	for k := 0; k < 100; k++ {
		j := big.alloc()
		big.at(j).refs = 1
		big.queue.push(j, false)
	}
	assert.Equal(t, int64(maxDuration)*1e9, big.retryAfter(), "100 hours of work waiting: the hint is capped at a day")

	// A timeout carries no hint: the client waits RetryDelayMS.
	i := e.alloc()
	a := e.at(i)
	a.try, a.refs = 1, 1
	e.retryOrSettle(a, timedOut)
	assert.Equal(t, int64(1e9), nextScheduled(e)-e.now, "after a timeout, the fixed delay")
}

// TestRatioNeverExceedsItsShare checks the ratio client's rule at every
// decision: a retry is made only while retries are under RatioMax of the
// requests in the window, and never a third retry.
func TestRatioNeverExceedsItsShare(t *testing.T) {
	c := DefaultConfig()
	c.Client, c.Retries = Ratio, 3
	e := newEngine(c, nil)
	e.history.advance(0)
	for k := 0; k < 100; k++ {
		e.history.add(sentRequests)
	}
	made := 0
	for k := 0; k < 30; k++ {
		i := e.alloc()
		a := e.at(i)
		a.try, a.refs = 1, 1
		e.retryOrSettle(a, timedOut)
		e.release(i, a)
	}
	made = e.retriesMade
	assert.Equal(t, 10, made, "100 requests in the window allow 10 retries at 10%%")
	assert.Equal(t, 20, e.retriesDeclined, "the other 20 are declined")
	// A fresh window with room for retries: the attempt limit alone
	// decides. A second attempt may retry; a third may not.
	e.history.advance(500e9)
	for k := 0; k < 100; k++ {
		e.history.add(sentRequests)
	}
	for _, tc := range []struct {
		try   int32
		retry bool
	}{{2, true}, {3, false}} {
		before := e.retriesMade
		i := e.alloc()
		a := e.at(i)
		a.try, a.refs = tc.try, 1
		e.retryOrSettle(a, timedOut)
		e.release(i, a)
		assert.Equal(t, tc.retry, e.retriesMade > before, "attempt %d, with the window's ratio to spare: a retry %v", tc.try, tc.retry)
	}
}

// TestBudgetPrices checks what a retry costs the budget client: a refusal,
// cheap to hear, BudgetRefusalCost tokens; a timeout BudgetTimeoutCost.
func TestBudgetPrices(t *testing.T) {
	c := DefaultConfig()
	c.Policy, c.Client, c.Retries = Bounded, Budget, 3
	e := newEngine(c, nil)
	for _, tc := range []struct {
		o    outcome
		cost int
	}{{refused, c.BudgetRefusalCost}, {timedOut, c.BudgetTimeoutCost}} {
		before := e.tokens
		i := e.alloc()
		a := e.at(i)
		a.try, a.refs = 1, 1
		e.retryOrSettle(a, tc.o)
		e.release(i, a)
		assert.Equal(t, int64(tc.cost), before-e.tokens, "outcome %d", tc.o)
	}
	assert.NotEqual(t, c.BudgetRefusalCost, c.BudgetTimeoutCost, "the defaults tell the two prices apart")
}

// TestBudgetNeverExceedsItsAllowance checks the token bucket over whole
// runs: the tokens spent never exceed the quota plus what answers refilled,
// each retry paid at least the cheaper cost, and an empty bucket that
// nothing refills makes no retries at all.
func TestBudgetNeverExceedsItsAllowance(t *testing.T) {
	for _, p := range Policies {
		for _, seed := range []uint64{1, 2, 3} {
			c := DefaultConfig()
			c.Policy, c.Client, c.Retries, c.Seed = p, Budget, 3, seed
			r, err := Run(c)
			require.NoError(t, err)
			s := r.Client
			assert.LessOrEqual(t, s.TokensSpent, int64(c.BudgetTokens)+s.TokensRefilled, "%s seed %d: spent within the allowance", p, seed)
			assert.LessOrEqual(t, int64(s.Retries)*int64(min(c.BudgetRefusalCost, c.BudgetTimeoutCost)), s.TokensSpent, "%s seed %d: every retry paid", p, seed)
			assert.GreaterOrEqual(t, int64(s.Retries)*int64(max(c.BudgetRefusalCost, c.BudgetTimeoutCost)), s.TokensSpent, "%s seed %d: no retry paid more than the dearer cost", p, seed)
		}
	}
	c := DefaultConfig()
	c.Client, c.Retries, c.BudgetTokens, c.BudgetRefill = Budget, 3, 0, 0
	r, err := Run(c)
	require.NoError(t, err)
	assert.Zero(t, r.Client.Retries, "an empty bucket that nothing refills allows no retry")
	assert.Equal(t, r.Attempts, r.People, "so every person sends exactly one attempt")
}

// TestThrottleRefusesWhenNothingIsAccepted drives the throttle client
// against a service that accepts nothing (one worker busy for the whole run,
// a queue of one): after n requests each is sent with probability
// 1/(n+1), so about ln(N) + 0.58 of N requests reach the service.
func TestThrottleRefusesWhenNothingIsAccepted(t *testing.T) {
	c := DefaultConfig()
	c.Policy, c.Client, c.Workers, c.ServiceMS, c.Queue = Bounded, Throttle, 1, maxMS, 1
	c.SaleRPS, c.ClientWindowS = c.NormalRPS, 3600
	r, err := Run(c)
	require.NoError(t, err)
	n := float64(r.People)
	expect := math.Log(n) + 0.5772
	assert.Equal(t, r.People, r.Client.Throttled+r.Attempts, "every request was either sent or refused by the client")
	assert.InDelta(t, expect, float64(r.Attempts), 5*math.Sqrt(expect), "sent ~ harmonic number H_N = %.1f", expect)

	c = DefaultConfig()
	c.Client, c.Workers = Throttle, 40
	r, err = Run(c)
	require.NoError(t, err)
	// Only at the very start, before the first answers come back (at 1
	// request and 0 accepts the formula gives 1/2), does it refuse.
	assert.Less(t, r.Client.Throttled, r.People/500, "a service that answers everyone is throttled only at the start")
	assert.Equal(t, 1.0, r.Sale.AnsweredShare, "and everyone in the sale is answered")
}

// TestClientsAndTheMetastableCase is issue 5's recovery, over seeds 1..20:
// the post's unbounded queue with 3 retries stays stuck with the post's
// client and gets back to normal under a retry budget; under a retry ratio
// the queue drains (back, or a backlog the fluid view says drains); under
// adaptive throttling the service's queue empties but the clients refuse
// themselves (recovery "throttled"), never "stuck".
func TestClientsAndTheMetastableCase(t *testing.T) {
	want := map[Client]func(Recovery) bool{
		Fixed:    func(r Recovery) bool { return r == Stuck },
		Budget:   func(r Recovery) bool { return r == Normal },
		Ratio:    func(r Recovery) bool { return r == Normal || r == Backlog },
		Throttle: func(r Recovery) bool { return r != Stuck },
	}
	for cl, ok := range want {
		for seed := uint64(1); seed <= 20; seed++ {
			c := DefaultConfig()
			c.Retries, c.Client, c.Seed = 3, cl, seed
			r, err := Run(c)
			require.NoError(t, err)
			assert.True(t, ok(r.Recovery), "%s seed %d: recovery %q", cl, seed, r.Recovery)
			if cl == Budget {
				assert.Less(t, r.AttemptsPerPerson, 1.1, "%s seed %d: the budget holds attempts near 1 per person", cl, seed)
			}
		}
	}
	c := DefaultConfig()
	c.Retries = 3
	for cl, tries := range map[Client]float64{Fixed: 4, Backoff: 4, RetryAfter: 4, Budget: 1, Ratio: 1 / 0.9, Throttle: 0} {
		c.Client = cl
		assert.InDelta(t, tries, c.FluidTries(3), 1e-12, "%s: the fluid view's tries once everyone times out", cl)
	}
}

// nextScheduled removes the retry retryOrSettle just scheduled, from the
// retry line or the heap, and returns its time, ns.
func nextScheduled(e *engine) int64 {
	if e.retryLine.n > 0 {
		return e.retryLine.popFront().at
	}
	if e.events.n == 0 {
		panic("no retry was scheduled")
	}
	at := e.events.buf[0].at
	e.events.pop()
	return at
}

// onePerson runs c's engine with nobody arriving but one person, at 1 s,
// after prime has set the engine up (the throttle client's history, say),
// and returns the Result.
func onePerson(c Config, prime func(e *engine)) Result {
	c.NormalRPS, c.SaleRPS, c.SaleStartS, c.SaleS = 0, 0, 0, 0
	e := newEngine(c, nil)
	prime(e)
	e.now = 1e9
	e.newPerson()
	e.loop()
	return e.result()
}

// TestThrottledPersonWithPatience settles, with one person, how the
// throttle client's own refusals meet patience (MODEL.md rule 33): a
// request the client refuses itself never reaches the service, so no
// patience is drawn for it and its "no" is heard at once, before any
// patience could run out; the person retries as after any refusal, and is
// refused if it was their last attempt. Only an attempt that was sent can
// be given up on. (Issue 27, item 9: an independent model counted more
// people giving up and fewer refused.)
func TestThrottledPersonWithPatience(t *testing.T) {
	c := DefaultConfig()
	c.Client, c.Retries, c.DurationS = Throttle, 3, 60
	c.Patience, c.PatienceMS = ExponentialPatience, 1e-3 // a microsecond: whoever is sent gives up
	c.Service = ConstantService
	cases := []struct {
		reason string
		prime  func(e *engine)
		want   Window // the one person's window's counts
		// throttled and sent are the attempts the client refused itself and
		// those that reached the service.
		throttled, sent int
	}{
		{"every attempt throttled: refused by the last, and no patience drawn",
			func(e *engine) {
				for range 1_000_000 { // 1,000,000 requests, no accepts: p = 0.999999
					e.history.add(sentRequests)
				}
			},
			Window{People: 1, Refused: 1}, 4, 0},
		{"no history, nothing throttled: the first attempt is sent, and its person gives up",
			func(*engine) {},
			Window{People: 1, TimedOut: 1, GaveUp: 1}, 0, 1},
	}
	for _, tc := range cases {
		r := onePerson(c, tc.prime)
		w := r.Windows[0]
		assert.Equal(t, tc.want.People, w.People, tc.reason)
		assert.Equal(t, tc.want.Refused, w.Refused, tc.reason)
		assert.Equal(t, tc.want.TimedOut, w.TimedOut, tc.reason)
		assert.Equal(t, tc.want.GaveUp, w.GaveUp, tc.reason)
		assert.Equal(t, tc.throttled, r.Client.Throttled, "%s: refused by the client itself", tc.reason)
		assert.Equal(t, tc.sent, r.Attempts, "%s: attempts (rule 19) leave out what the client refused itself", tc.reason)
	}
}

// TestRulesAsMODELStatesThem pins what MODEL.md's clarifications (issue
// 27, item 9) say the engine does, where the rules were silent.
func TestRulesAsMODELStatesThem(t *testing.T) {
	half := DefaultConfig()
	half.Policy, half.TimeoutMS, half.Workers, half.ServiceMS = Bounded, 1000, 5, 100 // 1000 x 5 / 100 / 4 = 12.5
	assert.Equal(t, 13, half.QueueBound(), "rule 8: a bound of x.5 rounds half away from zero")

	incident := DefaultConfig()
	incident.LossWorkers, incident.LossStartS, incident.LossS = 3, 60, 60
	cases := []struct {
		reason   string
		edit     func(*Config)
		measured bool // anyone is measured
	}{
		{"rule 24: a sale of 0/s is a sale, of nobody, so nobody is measured", func(c *Config) { c.SaleRPS = 0 }, false},
		{"rule 24: a sale of no length is no sale, so the incident's people are", func(c *Config) { c.SaleS, c.SaleStartS = 0, 0 }, true},
	}
	for _, tc := range cases {
		c := incident
		tc.edit(&c)
		r, err := Run(c)
		require.NoError(t, err, tc.reason)
		assert.Equal(t, tc.measured, r.Sale.People > 0, "%s: %d people measured", tc.reason, r.Sale.People)
	}
}
