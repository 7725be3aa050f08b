package sim

// Proxy is the retry policy of the proxy in front of a hop of a chain
// (rules 41 to 44): the client's side of every call the hop before makes
// to it, as a mesh's sidecar or a gRPC channel retries on the caller's
// behalf. Its zero value retries nothing.
type Proxy struct {
	// Retries is the most retries of one call, after its first try
	// (Envoy's num_retries; gRPC's maxAttempts - 1).
	Retries int `json:"retries"`
	// PerTryTimeoutMS is each try's timeout, ms; 0 for none, when a try
	// may take the whole call's time (Hop.TimeoutMS).
	PerTryTimeoutMS float64 `json:"per_try_timeout_ms,omitempty"`
	// RetryOn is what the proxy retries: refusals, timeouts or both.
	RetryOn RetryOn `json:"retry_on,omitempty"`
	// BackoffBaseMS and BackoffMaxMS are the retries' backoff, ms (rule 41).
	BackoffBaseMS float64 `json:"backoff_base_ms,omitempty"`
	BackoffMaxMS  float64 `json:"backoff_max_ms,omitempty"`
	// Budget is the accounting that may refuse a retry (rules 42 to 44).
	Budget BudgetKind `json:"budget,omitempty"`
}

// RetryOn is what a proxy retries.
type RetryOn int

const (
	RetryBoth     RetryOn = iota // refusals and timeouts
	RetryRefusals                // refusals only (Envoy's 5xx, gRPC's UNAVAILABLE)
	RetryTimeouts                // per-try timeouts only
)

// BudgetKind is the accounting a proxy keeps of its retries.
type BudgetKind int

const (
	NoBudget BudgetKind = iota
	EnvoyBudget
	LinkerdBudget
	GRPCThrottle
)

// retryBudget is a proxy's retry budget: it hears of every try the proxy
// sends and of how each ended, and says whether a retry may go.
type retryBudget interface {
	// sent notes a try the proxy sends at t, ns: a call's first try
	// (retry false) or a retry.
	sent(t int64, retry bool)
	// ended notes a try that ended at t, ns: answered (ok), or refused or
	// timed out; retry as sent said.
	ended(t int64, retry, ok bool)
	// allow says whether a retry may be scheduled at t, ns; when it says
	// yes, the budget counts the retry from then.
	allow(t int64) bool
}
