package sim

import "github.com/shedsim/shedsim/sim/internal/limits"

// AIMD is Netflix's AIMD limit (rule 34), an adaptive concurrency limit
// in front of the post's queue: it admits a request while fewer than its
// limit are in flight, cuts the limit by a ratio when a request it
// admitted takes longer than a timeout, and adds one when a request
// leaves while at least half the limit was in flight.
const AIMD Policy = 6

// AIMDSettings are the settings of the AIMD limit (rule 34), which Config
// embeds. Each 0 stands for the library's default.
type AIMDSettings struct {
	// AIMDInitialLimit is the limit before the first request leaves, in
	// requests in flight (0: 20, AIMDLimit's initialLimit).
	AIMDInitialLimit int `json:"aimd_initial_limit,omitempty"`
	// AIMDMinLimit and AIMDMaxLimit bound the limit once it moves, in
	// requests in flight (0: 20 and 200).
	AIMDMinLimit int `json:"aimd_min_limit,omitempty"`
	AIMDMaxLimit int `json:"aimd_max_limit,omitempty"`
	// AIMDBackoff is the ratio a drop multiplies the limit by, from 0.5
	// up to but not 1 (0: 0.9, backoffRatio).
	AIMDBackoff float64 `json:"aimd_backoff,omitempty"`
	// AIMDTimeoutMS is the time from admission to the end of service
	// over which a request counts as a drop, in milliseconds (0: 5000).
	AIMDTimeoutMS float64 `json:"aimd_timeout_ms,omitempty"`
}

// The AIMD limit's defaults, from AIMDLimit.Builder.
const (
	aimdInitial   = 20
	aimdMin       = 20
	aimdMax       = 200
	aimdBackoff   = 0.9
	aimdTimeoutMS = 5000
	maxLimit      = 1_000_000 // the largest limit any adaptive limit may be given
)

// orInt is x, or def where x is 0 (a setting left at its default).
func orInt(x, def int) int {
	if x == 0 {
		return def
	}
	return x
}

// orReal is orInt for a number.
func orReal(x, def float64) float64 {
	if x == 0 {
		return def
	}
	return x
}

func init() {
	definePolicy(AIMD, policySpec{
		key: "aimd", title: "AIMD limit (Netflix)", short: "AIMD", noun: "Netflix's AIMD limit",
		light: "#00727a", dark: "#5fd3dc", dash: "12 2 2 2 2 2",
		rule:     34,
		settings: []string{"limit_queue", "aimd_initial_limit", "aimd_min_limit", "aimd_max_limit", "aimd_backoff", "aimd_timeout_ms"},
		declares: []Setting{
			{Key: "aimd_initial_limit", Group: GroupAdvanced, Label: "AIMD initial limit", Unit: "in flight, 0 = 20", Kind: Whole, Min: 1, Max: maxLimit, Zero: "20",
				Owner: policy, validatedHere: true, Help: "AIMD limit: the limit before the first request leaves, requests in flight (0: Netflix's 20)"},
			{Key: "aimd_min_limit", Group: GroupAdvanced, Label: "AIMD min limit", Unit: "in flight, 0 = 20", Kind: Whole, Min: 1, Max: maxLimit, Zero: "20",
				Owner: policy, validatedHere: true, Help: "AIMD limit: the least the limit falls to (0: Netflix's 20)"},
			{Key: "aimd_max_limit", Group: GroupAdvanced, Label: "AIMD max limit", Unit: "in flight, 0 = 200", Kind: Whole, Min: 1, Max: maxLimit, Zero: "200",
				Owner: policy, validatedHere: true, Help: "AIMD limit: the most the limit climbs to (0: Netflix's 200)"},
			{Key: "aimd_backoff", Group: GroupAdvanced, Label: "AIMD backoff", Unit: "0 = 0.9", Kind: Real, Min: 0.5, Max: 1, MaxOpen: true, Zero: "0.9",
				Owner: policy, validatedHere: true, Help: "AIMD limit: the ratio a drop multiplies the limit by, 0.5 up to 1 (0: Netflix's 0.9)"},
			{Key: "aimd_timeout_ms", Group: GroupAdvanced, Label: "AIMD timeout", Unit: "ms, 0 = 5000", Kind: Real, Min: 0, Max: maxMS, MinOpen: true, Zero: "5000",
				Owner: policy, validatedHere: true, Help: "AIMD limit: a request admitted longer ago than this when it ends counts as a drop, ms (0: Netflix's 5000)"},
		},
		validate: func(c Config, bad func(field, says string)) {
			s := c.AIMDSettings
			if lo, hi := orInt(s.AIMDMinLimit, aimdMin), orInt(s.AIMDMaxLimit, aimdMax); lo > hi && s.AIMDMinLimit >= 0 && s.AIMDMaxLimit >= 0 {
				bad("aimd_min_limit", limits.Count(int64(lo))+" is above the most the limit may climb to, {aimd_max_limit} "+limits.Count(int64(hi))+
					": give a min of at most "+limits.Count(int64(hi))+", or a larger {aimd_max_limit}")
			}
		},
		admit: admitLimit, take: takeOldest, shed: shedNothing,
		limiter: func(c Config) limiter {
			s := c.AIMDSettings
			return &aimdLimit{
				now:     orInt(s.AIMDInitialLimit, aimdInitial),
				min:     orInt(s.AIMDMinLimit, aimdMin),
				max:     orInt(s.AIMDMaxLimit, aimdMax),
				backoff: orReal(s.AIMDBackoff, aimdBackoff),
				timeout: ms(orReal(s.AIMDTimeoutMS, aimdTimeoutMS)),
			}
		},
		samples: []Sample{
			{"aimd", "AIMD's saw-tooth", "The sale behind Netflix's AIMD limit, with its timeout at 300 ms: each request admitted more than 300 ms before it ends cuts the limit by a tenth, and each that leaves while half the limit is in flight adds one.",
				withPolicy(AIMD, func(c *Config) { c.AIMDTimeoutMS = 300; c.AIMDMinLimit = 1 })},
		},
	})
}

// aimdLimit is AIMDLimit's rule (rule 34): the limit now, its bounds, the
// backoff ratio and the timeout, ns.
type aimdLimit struct {
	now, min, max int
	backoff       float64
	timeout       int64
}

func (l *aimdLimit) limit() int { return l.now }

// sample is AIMDLimit._update: a drop, or a request longer than the
// timeout, multiplies the limit by the backoff ratio, truncated as Java's
// (int) cast truncates; else a request that left with at least half the
// limit in flight adds one; then the limit is clamped to [min, max].
func (l *aimdLimit) sample(now, start int64, inflight int, dropped bool) {
	n := l.now
	if dropped || now-start > l.timeout {
		n = int(float64(n) * l.backoff)
	} else if inflight*2 >= n {
		n++
	}
	l.now = min(l.max, max(l.min, n))
}
