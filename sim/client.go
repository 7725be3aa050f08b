package sim

import (
	"fmt"
	"strings"
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

var clientNames = [...]string{"fixed", "backoff", "budget", "ratio", "retry-after", "throttle"}

var clientTitles = [...]string{
	"Fixed delay (the post's client)",
	"Backoff with full jitter",
	"Retry budget (token bucket)",
	"Retry ratio (SRE book)",
	"Honours Retry-After",
	"Adaptive throttling",
}

// String returns the client's key, as used in JSON, URLs and flags.
func (c Client) String() string {
	if c < 0 || int(c) >= len(clientNames) {
		return fmt.Sprintf("Client(%d)", int(c))
	}
	return clientNames[c]
}

// Title returns the client's name for people.
func (c Client) Title() string {
	if c < 0 || int(c) >= len(clientTitles) {
		return c.String()
	}
	return clientTitles[c]
}

// ParseClient returns the client strategy whose key is s, ignoring case
// and spaces.
func ParseClient(s string) (Client, error) {
	k := strings.ToLower(strings.TrimSpace(s))
	for i, n := range clientNames {
		if k == n {
			return Client(i), nil
		}
	}
	return 0, fmt.Errorf("unknown client %q: use one of %s", s, strings.Join(clientNames[:], ", "))
}

// MarshalText encodes the client as its key.
func (c Client) MarshalText() ([]byte, error) {
	if c < 0 || int(c) >= len(clientNames) {
		return nil, fmt.Errorf("unknown client %d", int(c))
	}
	return []byte(c.String()), nil
}

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
func (c Config) FluidTries(retries int) float64 {
	tries := float64(1 + retries)
	switch c.Client {
	case Budget:
		return 1
	case Ratio:
		return min(tries, ratioMaxAttempts, 1/(1-c.RatioMax))
	case Throttle:
		return 0
	}
	return tries
}
