package sim

import "math"

// envoyBudget is Envoy's limit on retries at once (rule 42), read from
// envoyproxy/envoy at commit 01c2c1fadbc61d572c7e02568c98ff001c0bfe8f
// (source/common/upstream/resource_manager_impl.h, RetryBudgetImpl, and
// api/envoy/config/cluster/v3/circuit_breaker.proto), with
// source/common/router/retry_state_impl.cc at commit
// e78906c5cbf579e412a7ca76ecabeee0e11d977f for when a retry counts.
//
// A retry counts from the moment it is allowed (shouldRetry increments the
// retries resource before its backoff) until its try ends, or until the
// call gives it up unsent (resetRetry, called at the next decision or when
// the request is destroyed). A retry is allowed while the retries counted
// are under the limit (canCreate: count < max). With a retry_budget the
// limit is max(trunc(budget_percent / 100 x active), min_retry_concurrency),
// where active is the cluster's requests plus its pending requests: here
// the tries this proxy has out (sent, not yet ended), since there is no
// connection pool to wait in, so pending is 0. Without one (EnvoyMaxRetries)
// it is the circuit breaker's max_retries.
//
// Its cost is O(1) an event.
type envoyBudget struct {
	percent float64 // budget_percent, %; ignored when fixed
	least   int64   // min_retry_concurrency
	fixed   bool    // the max_retries circuit breaker: the limit is least
	active  int64   // tries out: sent, not yet ended
	retries int64   // retries counted: allowed, not yet ended
}

// newEnvoyBudget is Envoy's retry_budget: retries at once under
// max(percent% of the tries out, least).
func newEnvoyBudget(percent float64, least int) *envoyBudget {
	return &envoyBudget{percent: percent, least: int64(least)}
}

// newEnvoyMaxRetries is Envoy's max_retries circuit breaker: at most n
// retries at once.
func newEnvoyMaxRetries(n int) *envoyBudget {
	return &envoyBudget{least: int64(n), fixed: true}
}

// limit is the most retries that may be counted at once now.
func (b *envoyBudget) limit() int64 {
	if b.fixed {
		return b.least
	}
	// Envoy converts the double to uint64: truncation.
	share := float64(b.percent/100) * float64(b.active)
	n := int64(0)
	switch {
	case share >= math.MaxInt64:
		n = math.MaxInt64
	case share > 0:
		n = int64(share)
	}
	return max(n, b.least)
}

func (b *envoyBudget) sent(t int64, retry bool) { b.active++ }

func (b *envoyBudget) ended(t int64, retry bool, end tryEnd) {
	if end != tryUnsent {
		b.active--
	}
	if retry {
		b.retries--
	}
	if b.active < 0 || b.retries < 0 {
		panic("sim: envoy budget told of a try ended that was not sent, or of a retry it never allowed")
	}
}

func (b *envoyBudget) allow(t int64) bool {
	if b.retries < b.limit() {
		b.retries++
		return true
	}
	return false
}
