package sim

import (
	"math"

	"github.com/shedsim/shedsim/sim/internal/portable"
)

// Client is how a client decides whether, and when, to retry after a
// timeout or a refusal it heard. Budgets, ratios and throttling are kept by
// the sending side as a whole, not per person: one upstream service (the
// app's backend) sending every person's requests, as in the SRE book and
// the AWS SDKs. Every strategy still sends at most 1 + Config.Retries
// attempts per person. The zero value is Fixed.
type Client int

const (
	// Fixed is the post's client: after a timeout or a refusal it retries
	// RetryDelayMS later (plus RetryJitterMS of uniform jitter), up to
	// Retries times. It has no budget: "Without a budget, the first big spike
	// can be the one that never ends."
	Fixed Client = iota
	// Backoff is exponential backoff with full jitter, after Marc Brooker's
	// "Exponential Backoff And Jitter" (AWS Architecture Blog, 2015): retry
	// n waits a uniform draw in [0, min(BackoffCapMS, BackoffBaseMS x
	// 2^(n-1))). It spreads retries out; it does not reduce them.
	Backoff
	// Budget is a token-bucket retry budget as the AWS SDKs' standard retry
	// mode keeps it: a quota of BudgetTokens (500); a retry after a refusal
	// costs BudgetRefusalCost (5) and after a timeout BudgetTimeoutCost
	// (10), and is not made when the quota cannot pay; an answered retry
	// refunds its cost and any other answer adds BudgetRefill (1), up to the
	// quota. Retries wait RetryDelayMS, as Fixed's do.
	Budget
	// Ratio is the SRE book's per-client retry budget ("Handling Overload"):
	// at most 3 attempts per request, and a retry only while retries are
	// under RatioMax (10%) of the requests sent in the last ClientWindowS.
	// Retries wait RetryDelayMS.
	Ratio
	// RetryAfter honours a hint in the refusal, as RFC 9110 §10.2.3's
	// Retry-After header carries it: the server says how long its queue
	// would take to drain at full capacity, in whole seconds, at least 1,
	// and the client waits that long plus a uniform jitter under one second.
	// A timeout carries no hint, so it retries after RetryDelayMS.
	RetryAfter
	// Throttle is the SRE book's adaptive client-side throttling ("Handling
	// Overload"): before sending, the client refuses a request itself with
	// probability max(0, (requests - ThrottleK x accepts) / (requests + 1)),
	// over the last ClientWindowS (the book's two minutes), where requests
	// counts every attempt the application made and accepts those the
	// service answered. A request it refuses counts as refused, and may be
	// retried like one. Retries wait RetryDelayMS.
	Throttle
)

// Clients lists every client strategy, the post's first.
var Clients = []Client{Fixed, Backoff, Budget, Ratio, RetryAfter, Throttle}

// clientKeys are the client keys and titles, in the order of the constants.
var clientKeys = keys{
	typ:   "Client",
	noun:  "client",
	names: []string{"fixed", "backoff", "budget", "ratio", "retry-after", "throttle"},
	titles: []string{
		"Fixed delay (the post's client)",
		"Backoff with full jitter",
		"Retry budget (token bucket)",
		"Retry ratio (SRE book)",
		"Honours Retry-After",
		"Adaptive throttling",
	},
}

// String returns the client's key, as used in JSON, URLs and flags.
func (c Client) String() string { return clientKeys.name(int(c)) }

// Title returns the client's name for people.
func (c Client) Title() string { return clientKeys.title(int(c)) }

// ParseClient returns the client whose key is s, ignoring case and spaces.
func ParseClient(s string) (Client, error) {
	i, err := clientKeys.parse(s)
	return Client(i), err
}

// MarshalText encodes the client as its key.
func (c Client) MarshalText() ([]byte, error) { return clientKeys.marshal(int(c)) }

// UnmarshalText decodes a client from its key.
func (c *Client) UnmarshalText(b []byte) error {
	v, err := ParseClient(string(b))
	if err != nil {
		return err
	}
	*c = v
	return nil
}

// ratioMaxAttempts is the SRE book's limit: at most 3 attempts per request.
const ratioMaxAttempts = 3

// FluidTries is the fluid view's attempts per person once everyone times
// out (rule 18, extended to the client strategies): 1 + retries for the
// clients that always retry (Fixed, Backoff, and RetryAfter, since a
// timeout carries no hint); 1 for Budget, whose quota is spent and which no
// answer refills; at most 1 / (1 - RatioMax) for Ratio (and at most 3);
// and 0 for Throttle, which refuses almost everything itself once nothing
// is accepted.
//
// With patience (rule 4a) only the people who outwait the timeout retry:
// a share q = OutwaitShare of each attempt's people, so n attempts become
// 1 + q + ... + q^(n-1) = (1 - q^n) / (1 - q) of them (rule 18a).
func (c Config) FluidTries(retries int) float64 {
	tries := c.patientTries(1 + retries)
	switch c.Client {
	case Budget:
		return 1
	case Ratio:
		return min(tries, c.patientTries(ratioMaxAttempts), 1/(1-c.RatioMax))
	case Throttle:
		return 0
	}
	return tries
}

// OutwaitShare is the share of people who wait out the whole timeout
// rather than give up first (rule 4a): e^(-timeout / patience) with
// exponential patience, 1 with none.
func (c Config) OutwaitShare() float64 {
	if c.Patience != ExponentialPatience {
		return 1
	}
	return portable.Exp(-c.TimeoutMS / c.PatienceMS)
}

// patientTries is the attempts a person makes, of at most n, when every
// attempt waits out the timeout and only those who outwait it retry.
func (c Config) patientTries(n int) float64 {
	q := c.OutwaitShare()
	if q == 1 {
		return float64(n)
	}
	tries, qk := 0.0, 1.0
	for range n {
		tries += qk
		qk = float64(qk * q)
	}
	return tries
}

// send is the client sending attempt i: the throttle client may refuse it
// itself (Client Throttle), otherwise it arrives at the service.
func (e *engine) send(i id) {
	if e.proxy != nil {
		e.proxySend(i)
		return
	}
	a := e.at(i)
	switch e.cfg.Client {
	case Ratio:
		e.history.advance(e.now)
		e.history.add(sentRequests)
	case Throttle:
		e.history.advance(e.now)
		req, acc := float64(e.history.sum[sentRequests]), float64(e.history.sum[gotAccepts])
		e.history.add(sentRequests)
		if p := throttleProbability(req, acc, e.cfg.ThrottleK); p > 0 && e.clientRand.Float64() < p {
			e.throttled++
			e.hear(a)
			e.release(i, a)
			return
		}
	}
	e.arrive(i, a)
}

// accepted tells the sending side that a was answered: the throttle client
// counts an accept, the budget client refills.
func (e *engine) accepted(a *attempt) {
	if e.cfg.Client == Throttle || e.cfg.Client == Budget {
		e.countAccept(a)
	}
}

// countAccept is accepted for the clients that count answers.
func (e *engine) countAccept(a *attempt) {
	switch e.cfg.Client {
	case Throttle:
		e.history.advance(e.now)
		e.history.add(gotAccepts)
	case Budget:
		back := e.refill
		if a.paid > 0 {
			back = int64(a.paid) // an answered retry refunds its cost
		}
		back = min(back, int64(e.cfg.BudgetTokens)-e.tokens)
		e.tokens += back
		e.tokensRefilled += back
	}
}

// retryOrSettle decides, after attempt a ended with o (refused or timed
// out), whether its client tries again and when (rule 13 and Client);
// otherwise the person ends with o (rule 14).
func (e *engine) retryOrSettle(a *attempt, o outcome) {
	if e.proxy != nil {
		e.proxyRetryOrSettle(a, o)
		return
	}
	if e.final(a) {
		e.settle(a, o, 0)
		return
	}
	delay := e.retryDelay
	if e.retryJitter > 0 && e.cfg.Client != Backoff {
		delay += int64(float64(float64(e.retryJitter) * e.jitter.Float64()))
	}
	var paid int64
	switch e.cfg.Client {
	case Backoff:
		// Full jitter: uniform in [0, min(cap, base x 2^(n-1))).
		delay = int64(float64(backoffCeiling(e.backoffBase, e.backoffCap, a.try) * e.clientRand.Float64()))
	case Budget:
		paid = e.timeoutCostTokens
		if o == refused {
			paid = e.refusalCostTokens
		}
		if e.tokens < paid {
			e.retriesDeclined++
			e.settle(a, o, 0)
			return
		}
		e.tokens -= paid
		e.tokensSpent += paid
	case Ratio:
		e.history.advance(e.now)
		if a.try >= ratioMaxAttempts || float64(e.history.sum[sentRetries]) >= float64(e.cfg.RatioMax*float64(e.history.sum[sentRequests])) {
			e.retriesDeclined++
			e.settle(a, o, 0)
			return
		}
		e.history.add(sentRetries)
	case RetryAfter:
		if o == refused {
			delay = e.retryAfter() + int64(float64(1e9*e.clientRand.Float64()))
		}
	}
	e.retriesMade++
	j := e.alloc() // a stays put: blocks never move, and a is still held
	b := e.at(j)
	b.first, b.order, b.window, b.sale = a.first, a.order, a.window, a.sale
	b.try = a.try + 1
	b.refs = 1 // the retry event; arrive passes it on to the system
	b.prevRefused = o == refused
	b.paid = int32(paid)
	ev := event{at: e.now + delay, seq: nextSeq(&e.arrivalSeq), a: j, kind: retryArrival}
	if delay == e.retryDelay { // due in the order made, whatever the client
		e.retryLine.pushBack(ev)
		e.due(ev, fromRetryLine)
	} else {
		e.events.push(ev)
		e.due(ev, fromHeap)
	}
}

// throttleProbability is the SRE book's client request rejection
// probability, max(0, (requests - k x accepts) / (requests + 1)), with
// requests and accepts counted over the client's recent history.
func throttleProbability(requests, accepts, k float64) float64 {
	return atLeast((requests-float64(k*accepts))/(requests+1), 0)
}

// atMost and atLeast are min(x, limit) and max(x, limit) for floats that
// are never NaN, written as a comparison: under WebAssembly Go's min and
// max of floats are calls (runtime.fmin64), and a call spills every live
// value.
func atMost(x, limit float64) float64 {
	if x > limit {
		return limit
	}
	return x
}

func atLeast(x, limit float64) float64 {
	if x < limit {
		return limit
	}
	return x
}

// backoffCeiling is the full-jitter backoff's bound for a client's retry
// number n (1 for the first retry): min(cap, base x 2^(n-1)), in ns.
func backoffCeiling(base, cap float64, n int32) float64 {
	ceiling := base
	for k := int32(1); k < n && ceiling < cap; k++ {
		ceiling *= 2
	}
	return atMost(ceiling, cap)
}

// retryAfter is the server's Retry-After hint, in ns: how long the requests
// waiting would take to drain at full capacity, in whole seconds as HTTP
// sends it, at least 1 and at most a day (the longest run), so that a vast
// queue cannot overflow the clock.
func (e *engine) retryAfter() int64 { return e.retryAfterFor(e.waiting()) }

// retryAfterFor is retryAfter with waiting requests in the queue.
func (e *engine) retryAfterFor(waiting int) int64 {
	drain := float64(waiting) / e.capacityPerNS // ns
	s := atMost(atLeast(math.Ceil(drain/1e9), 1), maxDuration)
	return int64(s) * 1_000_000_000
}
