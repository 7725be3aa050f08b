package sim

import (
	"math"
	"strconv"
	"strings"

	"github.com/shedsim/shedsim/sim/internal/limits"
)

// Proxy is the retry policy of the proxy in front of a hop of a chain
// (rules 41 to 44): the client's side of every call the hop before makes
// to it, as a mesh's sidecar or a gRPC channel retries on the caller's
// behalf. Its zero value retries nothing. A preset (ProxyPreset) carries
// one source's published defaults; every preset also carries each budget's
// own defaults, so that choosing a budget on any preset gets its source's
// settings.
//
// A Proxy is plain data, comparable with ==. Its text form is a line of
// key=value words (set, appendText): "proxy=envoy retries=2".
type Proxy struct {
	// Retries is the most retries of one call, after its first try
	// (Envoy's num_retries, 1; Istio's attempts, 2; gRPC's maxAttempts - 1,
	// at most 4). Linkerd's ServiceProfile retries count none per call, only
	// the budget: its preset holds the most there is here, 100.
	Retries int `json:"retries"`
	// PerTryTimeoutMS is each try's timeout, ms; 0 for none, when a try
	// may take the whole call's time (Hop.TimeoutMS). No preset sets one.
	PerTryTimeoutMS float64 `json:"per_try_timeout_ms,omitempty"`
	// RetryOn is what the proxy retries: refusals, timeouts (of a try, by
	// PerTryTimeoutMS) or both. The call's own deadline is never retried.
	RetryOn RetryOn `json:"retry_on,omitempty"`
	// Backoff is the formula of the wait before each retry (rule 41):
	// none (at once), Envoy's or gRPC's.
	Backoff BackoffKind `json:"backoff,omitempty"`
	// BackoffBaseMS is the first retry's backoff interval, ms: Envoy's
	// retry_back_off.base_interval (25, whole ms), gRPC's initialBackoff
	// (the A6 example's 100). Unused with no backoff.
	BackoffBaseMS float64 `json:"backoff_base_ms,omitempty"`
	// BackoffMaxMS caps the backoff interval, ms: Envoy's max_interval (0
	// for its default, 10 x the base), gRPC's maxBackoff (1,000).
	BackoffMaxMS float64 `json:"backoff_max_ms,omitempty"`
	// BackoffMultiplier is gRPC's backoffMultiplier (2), the growth of the
	// interval from one retry to the next; Envoy's always doubles, and
	// ignores it.
	BackoffMultiplier float64 `json:"backoff_multiplier,omitempty"`
	// Budget is the accounting that may refuse a retry (rules 42 to 44).
	Budget BudgetKind `json:"budget,omitempty"`

	// BudgetPercent is Envoy's retry_budget.budget_percent, %: retries at
	// once are limited to this share of the tries outstanding (20).
	BudgetPercent float64 `json:"budget_percent,omitempty"`
	// MinRetryConcurrency is Envoy's retry_budget.min_retry_concurrency:
	// the limit of retries at once never goes below it (3).
	MinRetryConcurrency int `json:"min_retry_concurrency,omitempty"`
	// MaxRetries is Envoy's circuit breaker max_retries, the budget
	// max-retries: at most this many retries at once (3), Envoy's default
	// when no retry_budget is set.
	MaxRetries int `json:"max_retries,omitempty"`
	// RetryRatio is Linkerd's retry_ratio (tower's retry_percent), retries
	// per try the budget hears end without a retry (0.2).
	RetryRatio float64 `json:"retry_ratio,omitempty"`
	// MinRetriesPerS is Linkerd's min_retries_per_second (10): the budget
	// holds MinRetriesPerS x TTLS retries whatever the traffic.
	MinRetriesPerS int `json:"min_retries_per_s,omitempty"`
	// TTLS is Linkerd's ttl, whole s from 1 to 60 (10): how long the budget
	// remembers a deposit or a withdrawal.
	TTLS int `json:"ttl_s,omitempty"`
	// MaxTokens is gRPC's retryThrottling.maxTokens, whole tokens from 1 to
	// 1,000 (10).
	MaxTokens int `json:"max_tokens,omitempty"`
	// TokenRatio is gRPC's retryThrottling.tokenRatio, tokens a success
	// adds (0.1), to three decimal places.
	TokenRatio float64 `json:"token_ratio,omitempty"`
}

// RetryOn is what a proxy retries.
type RetryOn int

const (
	RetryBoth     RetryOn = iota // refusals and timeouts
	RetryRefusals                // refusals only (Envoy's 5xx, gRPC's UNAVAILABLE)
	RetryTimeouts                // per-try timeouts only
)

var retryOnKeys = keys{
	typ:    "RetryOn",
	noun:   "retry_on",
	names:  []string{"both", "refusals", "timeouts"},
	titles: []string{"Refusals and timeouts", "Refusals", "Timeouts"},
}

// String returns the key of what p retries: "both", "refusals" or "timeouts".
func (r RetryOn) String() string { return retryOnKeys.name(int(r)) }

// MarshalText encodes r as its key.
func (r RetryOn) MarshalText() ([]byte, error) { return retryOnKeys.marshal(int(r)) }

// UnmarshalText decodes r from its key.
func (r *RetryOn) UnmarshalText(b []byte) error {
	i, err := retryOnKeys.parse(string(b))
	if err == nil {
		*r = RetryOn(i)
	}
	return err
}

// BackoffKind is the formula of a proxy's wait before a retry (rule 41).
type BackoffKind int

const (
	// NoBackoff retries at once, as Linkerd's ServiceProfile retries do.
	NoBackoff BackoffKind = iota
	// EnvoyBackoff is Envoy's fully jittered exponential backoff, in whole
	// ms: retry n waits a uniform whole number of ms below the interval
	// I(n), I(1) = base, I(n+1) = 2 I(n) while I(n) < floor(max / 2), else
	// max.
	EnvoyBackoff
	// GRPCBackoff is gRPC's (A6): retry n waits min(base x
	// multiplier^(n-1), max) x a uniform draw in [0.8, 1.2).
	GRPCBackoff
)

var backoffKeys = keys{
	typ:    "BackoffKind",
	noun:   "backoff",
	names:  []string{"none", "envoy", "grpc"},
	titles: []string{"None", "Envoy's jittered exponential", "gRPC's (A6)"},
}

// String returns the backoff's key: "none", "envoy" or "grpc".
func (k BackoffKind) String() string { return backoffKeys.name(int(k)) }

// MarshalText encodes k as its key.
func (k BackoffKind) MarshalText() ([]byte, error) { return backoffKeys.marshal(int(k)) }

// UnmarshalText decodes k from its key.
func (k *BackoffKind) UnmarshalText(b []byte) error {
	i, err := backoffKeys.parse(string(b))
	if err == nil {
		*k = BackoffKind(i)
	}
	return err
}

// BudgetKind is the accounting a proxy keeps of its retries.
type BudgetKind int

const (
	// NoBudget lets every retry go that the count allows.
	NoBudget BudgetKind = iota
	// EnvoyBudget is Envoy's retry_budget (rule 42): retries at once under
	// max(BudgetPercent% of the tries outstanding, MinRetryConcurrency).
	EnvoyBudget
	// LinkerdBudget is Linkerd's retry budget, tower's TpsBudget (rule 43).
	LinkerdBudget
	// GRPCThrottle is gRPC's retry throttling (rule 44).
	GRPCThrottle
	// EnvoyMaxRetries is Envoy's max_retries circuit breaker (rule 42):
	// at most MaxRetries retries at once, Envoy's default with no budget.
	EnvoyMaxRetries
)

var budgetKeys = keys{
	typ:    "BudgetKind",
	noun:   "budget",
	names:  []string{"none", "envoy", "linkerd", "grpc", "max-retries"},
	titles: []string{"None", "Envoy's retry budget", "Linkerd's retry budget", "gRPC's retry throttling", "Envoy's max_retries"},
}

// String returns the budget's key: "none", "envoy", "linkerd", "grpc" or
// "max-retries".
func (k BudgetKind) String() string { return budgetKeys.name(int(k)) }

// MarshalText encodes k as its key.
func (k BudgetKind) MarshalText() ([]byte, error) { return budgetKeys.marshal(int(k)) }

// UnmarshalText decodes k from its key.
func (k *BudgetKind) UnmarshalText(b []byte) error {
	i, err := budgetKeys.parse(string(b))
	if err == nil {
		*k = BudgetKind(i)
	}
	return err
}

// budgetDefaults are every budget's published defaults (rules 42 to 44),
// which every preset carries: Envoy's circuit_breaker.proto (20%, 3, and
// max_retries 3), Linkerd's control plane (0.2, 10/s, 10 s) and the A6
// example's retryThrottling (10 tokens, 0.1).
var budgetDefaults = Proxy{
	BudgetPercent: 20, MinRetryConcurrency: 3, MaxRetries: 3,
	RetryRatio: 0.2, MinRetriesPerS: 10, TTLS: 10,
	MaxTokens: 10, TokenRatio: 0.1,
}

// withBudgetDefaults is p with every budget's defaults.
func withBudgetDefaults(p Proxy) Proxy {
	d := budgetDefaults
	p.BudgetPercent, p.MinRetryConcurrency, p.MaxRetries = d.BudgetPercent, d.MinRetryConcurrency, d.MaxRetries
	p.RetryRatio, p.MinRetriesPerS, p.TTLS = d.RetryRatio, d.MinRetriesPerS, d.TTLS
	p.MaxTokens, p.TokenRatio = d.MaxTokens, d.TokenRatio
	return p
}

// proxyPresets are the presets, in the order ProxyPresetKeys lists them
// (rule 41):
//   - none retries nothing;
//   - envoy: num_retries 1 and retry_back_off 25 ms, max 10 x base
//     (envoyproxy/envoy, api/envoy/config/route/v3/route_components.proto
//     at 0035e40b348445c76ea07ab161cb0503a556577d,
//     source/common/router/retry_state_impl.cc at
//     e78906c5cbf579e412a7ca76ecabeee0e11d977f); retry_on "5xx", which
//     covers refusals and per-try timeouts; no per-try timeout (the route's
//     timeout); no retry_budget, so max_retries 3 (circuit_breaker.proto at
//     01c2c1fadbc61d572c7e02568c98ff001c0bfe8f);
//   - istio: attempts 2 on "connect-failure,refused-stream,unavailable,
//     cancelled,retriable-status-codes", no per-try timeout, Envoy's
//     backoff, and max_retries 4,294,967,295, which never binds
//     (istio/istio at 86c9f01fd735fb01d8192f5bcaf0d424afb7f14c,
//     pilot/pkg/networking/core/route/retry/retry.go and
//     cluster_traffic_policy.go);
//   - linkerd: a ServiceProfile's retries: 5xx answers retried, no count
//     per call, no backoff, the retry budget (linkerd/linkerd2-proxy at
//     29637b64f6cebedaf15bfbf516818d7a28a4d5a6,
//     linkerd/app/outbound/src/http/retry.rs; linkerd/linkerd2 at
//     09046bebfae1fabff5501c1cfb44b93a5c3a449e,
//     controller/api/destination/profile_translator.go);
//   - grpc: A6's example retryPolicy (maxAttempts 4, initialBackoff 0.1 s,
//     maxBackoff 1 s, backoffMultiplier 2, UNAVAILABLE) and retryThrottling
//     (grpc/proposal at 1fd061ad8e7c46422b326e5a60cf68d042476205,
//     A6-client-retries.md): A6 has no defaults, every field is required.
var proxyPresets = []struct {
	key   string
	proxy Proxy
}{
	{"none", withBudgetDefaults(Proxy{})},
	{"envoy", withBudgetDefaults(Proxy{Retries: 1, RetryOn: RetryBoth,
		Backoff: EnvoyBackoff, BackoffBaseMS: 25, BackoffMaxMS: 250, Budget: EnvoyMaxRetries})},
	{"istio", withBudgetDefaults(Proxy{Retries: 2, RetryOn: RetryRefusals,
		Backoff: EnvoyBackoff, BackoffBaseMS: 25, BackoffMaxMS: 250})},
	{"linkerd", withBudgetDefaults(Proxy{Retries: maxProxyRetries, RetryOn: RetryRefusals, Budget: LinkerdBudget})},
	{"grpc", withBudgetDefaults(Proxy{Retries: 3, RetryOn: RetryRefusals,
		Backoff: GRPCBackoff, BackoffBaseMS: 100, BackoffMaxMS: 1000, BackoffMultiplier: 2, Budget: GRPCThrottle})},
}

// ProxyPreset returns the preset whose key is key ("none", "envoy",
// "istio", "linkerd", "grpc"), and whether there is one.
func ProxyPreset(key string) (Proxy, bool) {
	for _, p := range proxyPresets {
		if p.key == key {
			return p.proxy, true
		}
	}
	return Proxy{}, false
}

// ProxyPresetKeys returns the presets' keys, "none" first.
func ProxyPresetKeys() []string {
	out := make([]string, len(proxyPresets))
	for i, p := range proxyPresets {
		out[i] = p.key
	}
	return out
}

// Bounds of a proxy's settings.
const (
	maxProxyRetries      = 100       // retries of one call
	maxGRPCRetries       = 4         // A6: maxAttempts over 5 counts as 5
	maxProxyConcurrency  = 1_000_000 // Envoy's retries at once
	maxLinkerdTTLS       = 60        // tower's TpsBudget and Linkerd: ttl 1 to 60 s
	maxLinkerdRatio      = 1000      // tower's TpsBudget: retry_percent 0 to 1,000
	minLinkerdRatio      = 0.001     // above 0: a retry withdraws at most 1,000 tokens, and the reserve stays far from overflow
	maxLinkerdPerS       = 1_000_000 // retries a second
	maxGRPCTokens        = 1000      // A6: maxTokens in (0, 1000]
	maxGRPCTokenRatio    = 1000      // tokens a success adds
	maxBackoffMultiplier = 1000
	minProxyMS           = limits.MinServiceMS
)

// retriesOn says whether p retries a try that was refused (refused true) or
// that timed out by its per-try timeout (false), whatever its count.
func (p Proxy) retriesOn(refused bool) bool {
	switch p.RetryOn {
	case RetryBoth:
		return true
	case RetryRefusals:
		return refused
	case RetryTimeouts:
		return !refused
	}
	return false
}

// grpcCapped says whether p is a gRPC channel's policy, whose retries A6
// caps at 4 (maxAttempts 5).
func (p Proxy) grpcCapped() bool { return p.Backoff == GRPCBackoff || p.Budget == GRPCThrottle }

// envoyBackoffMaxMS is Envoy's max_interval, ms: BackoffMaxMS, or 10 x the
// base when it is 0 (retry_state_impl.cc).
func (p Proxy) envoyBackoffMaxMS() float64 {
	if p.BackoffMaxMS == 0 {
		return 10 * p.BackoffBaseMS
	}
	return p.BackoffMaxMS
}

// backoffNS returns the wait before retry n of a call (1 for the first),
// ns, from u, a uniform draw in [0, 1) (one per retry) (rule 41):
//   - none: 0;
//   - envoy: floor(u x I(n)) whole ms, I(1) the base, I(n+1) = 2 I(n) while
//     I(n) < floor(max / 2), else max (Envoy's JitteredExponentialBackOffStrategy);
//   - grpc: min(base x multiplier^(n-1), max) x (0.8 + 0.4 u), truncated to
//     whole ns (A6, as grpc-go computes it).
func (p Proxy) backoffNS(retry int32, u float64) int64 {
	if retry < 1 {
		retry = 1
	}
	switch p.Backoff {
	case EnvoyBackoff:
		base := int64(clampMS(p.BackoffBaseMS))
		limit := int64(clampMS(p.envoyBackoffMaxMS()))
		if base < 1 {
			base = 1
		}
		if limit < base {
			limit = base
		}
		interval := base
		for i := int32(1); i < retry && interval < limit; i++ {
			if interval < limit/2 {
				interval *= 2
			} else {
				interval = limit
			}
		}
		ms := int64(0)
		if f := math.Floor(u * float64(interval)); f > 0 { // NaN and u <= 0 wait 0
			ms = min(int64(f), interval-1)
		}
		return ms * 1_000_000
	case GRPCBackoff:
		limit := clampMS(p.BackoffMaxMS) * 1e6
		cur := clampMS(p.BackoffBaseMS) * 1e6
		for i := int32(1); i < retry && cur < limit; i++ {
			cur *= p.BackoffMultiplier
		}
		cur = math.Min(cur, limit)
		cur *= float64(0.4*u) + 0.8
		if !(cur > 0) {
			return 0
		}
		if cur >= math.MaxInt64 {
			return math.MaxInt64
		}
		return int64(cur)
	}
	return 0
}

// clampMS is x, ms, within [0, limits.MaxMS]; NaN is 0.
func clampMS(x float64) float64 {
	if !(x > 0) {
		return 0
	}
	return math.Min(x, limits.MaxMS)
}

// grpcMilli is x in thousandths, its decimals past the third dropped (A6:
// "Decimal places beyond 3 are ignored"); 1e-6 absorbs binary fractions
// (0.29 x 1000 is 289.99999999999997).
func grpcMilli(x float64) int64 {
	m := math.Floor(float64(x*1000) + 1e-6)
	switch {
	case !(m > 0):
		return 0
	case m >= math.MaxInt64:
		return math.MaxInt64
	}
	return int64(m)
}

// tryEnd is how a try of a call through a proxy ended, as its budget hears
// of it.
type tryEnd int8

const (
	// tryAnswered: the hop answered.
	tryAnswered tryEnd = iota
	// tryRefused: the hop refused it (Envoy's 503, gRPC's UNAVAILABLE).
	tryRefused
	// tryTimedOut: the proxy's per-try timeout ran out, the call's deadline
	// not yet passed.
	tryTimedOut
	// tryAbandoned: the call's deadline passed while the try was out; the
	// call is over and nothing retries it.
	tryAbandoned
	// tryUnsent: a retry the budget allowed that was never sent, as the
	// call's deadline passed while it waited its backoff.
	tryUnsent
)

// retryBudget is a proxy's retry budget: it hears of every try the proxy
// sends and of how each ended, and says whether a retry may go. For each
// try the engine calls sent, then ended; after a try that ended refused or
// timed out, if the proxy retries that (retriesOn), has retries left and
// the call has time left, it calls allow at the same instant; when allow
// says yes, the retry waits its backoff and is sent, or, if the call's
// deadline comes first, ends tryUnsent. Times never go back. A budget
// panics when told of more ends than sends, a broken invariant.
type retryBudget interface {
	// sent notes a try the proxy sends at t, ns: a call's first try
	// (retry false) or a retry.
	sent(t int64, retry bool)
	// ended notes a try that ended at t, ns, as end says; retry as sent
	// said (true for a retry that ends tryUnsent).
	ended(t int64, retry bool, end tryEnd)
	// allow says whether a retry may be scheduled at t, ns; when it says
	// yes, the budget counts the retry from then.
	allow(t int64) bool
}

// newBudget returns p's budget, fresh at time 0; nil for none.
func (p Proxy) newBudget() retryBudget {
	switch p.Budget {
	case EnvoyBudget:
		return newEnvoyBudget(p.BudgetPercent, p.MinRetryConcurrency)
	case EnvoyMaxRetries:
		return newEnvoyMaxRetries(p.MaxRetries)
	case LinkerdBudget:
		return newLinkerdBudget(p)
	case GRPCThrottle:
		return newGRPCThrottle(p)
	}
	return nil
}

// proxyKeys are the keys of a proxy's text form, in the order appendText
// writes them, after "proxy".
var proxyKeys = []string{
	"retries", "per_try_timeout_ms", "retry_on",
	"backoff", "backoff_base_ms", "backoff_max_ms", "backoff_multiplier",
	"budget", "budget_percent", "min_retry_concurrency", "max_retries",
	"retry_ratio", "min_retries_per_s", "ttl_s", "max_tokens", "token_ratio",
}

// isProxyKey says whether key is a key of a proxy's text form ("proxy",
// "retries", ...), for a parser that sorts a hop's keys.
func isProxyKey(key string) bool {
	if key == "proxy" {
		return true
	}
	for _, k := range proxyKeys {
		if k == key {
			return true
		}
	}
	return false
}

// field returns the text of the setting key of p, and whether key is one.
func (p Proxy) field(key string) (string, bool) {
	f := func(x float64) string { return strconv.FormatFloat(x, 'g', -1, 64) }
	i := strconv.Itoa
	switch key {
	case "retries":
		return i(p.Retries), true
	case "per_try_timeout_ms":
		return f(p.PerTryTimeoutMS), true
	case "retry_on":
		return p.RetryOn.String(), true
	case "backoff":
		return p.Backoff.String(), true
	case "backoff_base_ms":
		return f(p.BackoffBaseMS), true
	case "backoff_max_ms":
		return f(p.BackoffMaxMS), true
	case "backoff_multiplier":
		return f(p.BackoffMultiplier), true
	case "budget":
		return p.Budget.String(), true
	case "budget_percent":
		return f(p.BudgetPercent), true
	case "min_retry_concurrency":
		return i(p.MinRetryConcurrency), true
	case "max_retries":
		return i(p.MaxRetries), true
	case "retry_ratio":
		return f(p.RetryRatio), true
	case "min_retries_per_s":
		return i(p.MinRetriesPerS), true
	case "ttl_s":
		return i(p.TTLS), true
	case "max_tokens":
		return i(p.MaxTokens), true
	case "token_ratio":
		return f(p.TokenRatio), true
	}
	return "", false
}

// set sets the setting key of p from its text value: "proxy" replaces
// every field with the preset's; any other key (proxyKeys) sets its field
// alone. The error names the key and the fix. Ranges are check's.
func (p *Proxy) set(key, value string) error {
	v := strings.TrimSpace(value)
	num := func() (float64, error) {
		x, err := strconv.ParseFloat(v, 64)
		if err != nil || math.IsNaN(x) || math.IsInf(x, 0) {
			return 0, NewFieldError(key, strconv.Quote(value)+" is not a number: write one such as 25 or 0.5")
		}
		return x, nil
	}
	whole := func() (int, error) {
		x, err := strconv.Atoi(v)
		if err != nil {
			return 0, NewFieldError(key, strconv.Quote(value)+" is not a whole number: write one such as 3")
		}
		return x, nil
	}
	choice := func(k keys) (int, error) {
		i, err := k.parse(v)
		if err != nil {
			return 0, NewFieldError(key, strconv.Quote(value)+" is not a "+k.noun+": use one of "+k.list())
		}
		return i, nil
	}
	var err error
	var i int
	var x float64
	switch key {
	case "proxy":
		q, ok := ProxyPreset(strings.ToLower(v))
		if !ok {
			return NewFieldError(key, strconv.Quote(value)+" is not a proxy: use one of "+strings.Join(ProxyPresetKeys(), ", "))
		}
		*p = q
	case "retries":
		i, err = whole()
		p.Retries = i
	case "per_try_timeout_ms":
		x, err = num()
		p.PerTryTimeoutMS = x
	case "retry_on":
		i, err = choice(retryOnKeys)
		p.RetryOn = RetryOn(i)
	case "backoff":
		i, err = choice(backoffKeys)
		p.Backoff = BackoffKind(i)
	case "backoff_base_ms":
		x, err = num()
		p.BackoffBaseMS = x
	case "backoff_max_ms":
		x, err = num()
		p.BackoffMaxMS = x
	case "backoff_multiplier":
		x, err = num()
		p.BackoffMultiplier = x
	case "budget":
		i, err = choice(budgetKeys)
		p.Budget = BudgetKind(i)
	case "budget_percent":
		x, err = num()
		p.BudgetPercent = x
	case "min_retry_concurrency":
		i, err = whole()
		p.MinRetryConcurrency = i
	case "max_retries":
		i, err = whole()
		p.MaxRetries = i
	case "retry_ratio":
		x, err = num()
		p.RetryRatio = x
	case "min_retries_per_s":
		i, err = whole()
		p.MinRetriesPerS = i
	case "ttl_s":
		i, err = whole()
		p.TTLS = i
	case "max_tokens":
		i, err = whole()
		p.MaxTokens = i
	case "token_ratio":
		x, err = num()
		p.TokenRatio = x
	default:
		return NewFieldError(key, "is not a proxy setting: use proxy or one of "+strings.Join(proxyKeys, ", "))
	}
	return err
}

// diff counts the settings in which p and q differ.
func (p Proxy) diff(q Proxy) int {
	n := 0
	for _, k := range proxyKeys {
		a, _ := p.field(k)
		b, _ := q.field(k)
		if a != b {
			n++
		}
	}
	return n
}

// appendText appends p's text form to b: "proxy=<preset>" for the preset
// p differs least from (the first of those that tie), then each setting in
// which p differs from it as key=value, separated by spaces, in proxyKeys'
// order; floats as strconv.FormatFloat(x, 'g', -1, 64). Setting each word
// in order (set) gives p back.
func (p Proxy) appendText(b []byte) []byte {
	best, bestN := 0, -1
	for i, q := range proxyPresets {
		if n := p.diff(q.proxy); bestN < 0 || n < bestN {
			best, bestN = i, n
		}
	}
	base := proxyPresets[best].proxy
	b = append(b, "proxy="+proxyPresets[best].key...)
	for _, k := range proxyKeys {
		a, _ := p.field(k)
		if z, _ := base.field(k); a != z {
			b = append(b, ' ')
			b = append(b, k+"="+a...)
		}
	}
	return b
}

// check calls bad with a key and a message, naming the fix, for each
// setting of p out of its range (rules 41 to 44). A budget's own settings
// are checked when it is chosen; the others may also be 0, unset.
func (p Proxy) check(bad func(key, msg string)) {
	whole := func(key string, x, lo, hi int, why string) {
		switch {
		case x < lo:
			bad(key, limits.Count(int64(x))+" is too small: use a whole number from "+limits.Count(int64(lo))+" to "+limits.Count(int64(hi))+why)
		case x > hi:
			bad(key, limits.Count(int64(x))+" is too large: use a whole number from "+limits.Count(int64(lo))+" to "+limits.Count(int64(hi))+why)
		}
	}
	real := func(key string, x, lo, hi float64, unit string) bool {
		switch {
		case math.IsNaN(x) || math.IsInf(x, 0):
			bad(key, limits.Num(x)+" is not a number: use one from "+limits.Num(lo)+" to "+limits.Num(hi)+unit)
		case x < lo:
			bad(key, limits.Num(x)+" is too small: use a number from "+limits.Num(lo)+" to "+limits.Num(hi)+unit)
		case x > hi:
			bad(key, limits.Num(x)+" is too large: use a number from "+limits.Num(lo)+" to "+limits.Num(hi)+unit)
		default:
			return true
		}
		return false
	}
	// unset lets a setting p does not use be 0.
	unset := func(used bool, x float64) bool { return !used && x == 0 }

	if p.grpcCapped() {
		whole("retries", p.Retries, 0, maxGRPCRetries, ": gRPC treats maxAttempts over 5 as 5")
	} else {
		whole("retries", p.Retries, 0, maxProxyRetries, "")
	}
	if p.PerTryTimeoutMS != 0 {
		real("per_try_timeout_ms", p.PerTryTimeoutMS, minProxyMS, limits.MaxMS, " ms, or 0 for none")
	}
	if m := retryOnKeys.unknown(int(p.RetryOn)); m != "" {
		bad("retry_on", m)
	} else if p.RetryOn == RetryTimeouts && p.PerTryTimeoutMS == 0 && p.Retries > 0 {
		bad("retry_on", "timeouts retries nothing without a per-try timeout: set per_try_timeout_ms, or use retry_on=refusals or both")
	}

	switch p.Backoff {
	case NoBackoff:
		for _, s := range []struct {
			key string
			x   float64
		}{{"backoff_base_ms", p.BackoffBaseMS}, {"backoff_max_ms", p.BackoffMaxMS}, {"backoff_multiplier", p.BackoffMultiplier}} {
			if s.x != 0 {
				real(s.key, s.x, 0, limits.MaxMS, ", unused with backoff=none")
			}
		}
	case EnvoyBackoff:
		if real("backoff_base_ms", p.BackoffBaseMS, 1, limits.MaxMS, " ms") && p.BackoffBaseMS != math.Trunc(p.BackoffBaseMS) {
			bad("backoff_base_ms", limits.Num(p.BackoffBaseMS)+" is not whole: Envoy's backoff counts whole ms: use "+limits.Num(math.Ceil(p.BackoffBaseMS)))
		}
		if p.BackoffMaxMS != 0 {
			if real("backoff_max_ms", p.BackoffMaxMS, math.Max(1, p.BackoffBaseMS), limits.MaxMS, " ms, at least backoff_base_ms, or 0 for 10 x backoff_base_ms") &&
				p.BackoffMaxMS != math.Trunc(p.BackoffMaxMS) {
				bad("backoff_max_ms", limits.Num(p.BackoffMaxMS)+" is not whole: Envoy's backoff counts whole ms: use "+limits.Num(math.Floor(p.BackoffMaxMS)))
			}
		} else if p.BackoffBaseMS*10 > limits.MaxMS {
			bad("backoff_max_ms", "0 stands for 10 x backoff_base_ms, "+limits.Num(p.BackoffBaseMS*10)+" ms, over "+limits.Num(limits.MaxMS)+" ms: set it")
		}
		if p.BackoffMultiplier != 0 {
			real("backoff_multiplier", p.BackoffMultiplier, 0, maxBackoffMultiplier, ", unused: Envoy's backoff doubles")
		}
	case GRPCBackoff:
		real("backoff_base_ms", p.BackoffBaseMS, minProxyMS, limits.MaxMS, " ms")
		real("backoff_max_ms", p.BackoffMaxMS, minProxyMS, limits.MaxMS, " ms")
		if real("backoff_multiplier", p.BackoffMultiplier, 0, maxBackoffMultiplier, "") && p.BackoffMultiplier == 0 {
			bad("backoff_multiplier", "0 is too small: gRPC's must be above 0: use a number up to "+limits.Num(maxBackoffMultiplier)+", such as 2")
		}
	default:
		bad("backoff", backoffKeys.unknown(int(p.Backoff)))
	}

	if m := budgetKeys.unknown(int(p.Budget)); m != "" {
		bad("budget", m)
	}
	envoy := p.Budget == EnvoyBudget
	if !unset(envoy, p.BudgetPercent) {
		real("budget_percent", p.BudgetPercent, 0, 100, " %")
	}
	if !unset(envoy, float64(p.MinRetryConcurrency)) {
		whole("min_retry_concurrency", p.MinRetryConcurrency, 0, maxProxyConcurrency, "")
	}
	if envoy && p.BudgetPercent == 0 && p.MinRetryConcurrency == 0 {
		bad("budget_percent", "0 with min_retry_concurrency=0 allows no retry: use a number from 0 to 100 %, with min_retry_concurrency 1 or more, or retries=0")
	}
	if !unset(p.Budget == EnvoyMaxRetries, float64(p.MaxRetries)) {
		whole("max_retries", p.MaxRetries, 1, maxProxyConcurrency, ", or retries=0 for none")
	}
	linkerd := p.Budget == LinkerdBudget
	if !unset(linkerd, p.RetryRatio) && real("retry_ratio", p.RetryRatio, 0, maxLinkerdRatio, "") && p.RetryRatio > 0 && p.RetryRatio < minLinkerdRatio {
		bad("retry_ratio", limits.Num(p.RetryRatio)+" is too small: a retry would cost more tokens than tower counts: use 0, or a number from "+
			limits.Num(minLinkerdRatio)+" to "+limits.Count(maxLinkerdRatio))
	}
	if !unset(linkerd, float64(p.MinRetriesPerS)) {
		whole("min_retries_per_s", p.MinRetriesPerS, 0, maxLinkerdPerS, "")
	}
	if !unset(linkerd, float64(p.TTLS)) {
		whole("ttl_s", p.TTLS, 1, maxLinkerdTTLS, " s, as Linkerd takes it")
	}
	if linkerd && p.RetryRatio == 0 && p.MinRetriesPerS == 0 {
		bad("retry_ratio", "0 with min_retries_per_s=0 allows no retry: use a number from 0 to 1,000, with min_retries_per_s 1 or more, or retries=0")
	}
	grpc := p.Budget == GRPCThrottle
	if !unset(grpc, float64(p.MaxTokens)) {
		whole("max_tokens", p.MaxTokens, 1, maxGRPCTokens, "")
	}
	if !unset(grpc, p.TokenRatio) && real("token_ratio", p.TokenRatio, 0, maxGRPCTokenRatio, "") && grpcMilli(p.TokenRatio) == 0 {
		bad("token_ratio", limits.Num(p.TokenRatio)+" is too small: gRPC keeps 3 decimal places: use a number from 0.001 to "+limits.Num(maxGRPCTokenRatio))
	}
}
