package sim

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestUnused: a setting given for runs that do not read it is named, with
// the setting that would make it count; one they read is not (issue 14,
// item 1).
func TestUnused(t *testing.T) {
	withRetries := DefaultConfig()
	withRetries.Retries = 3
	budget := withRetries
	budget.Client = Budget
	throttle := DefaultConfig()
	throttle.Client = Throttle
	backoff := withRetries
	backoff.Client = Backoff
	bounded := DefaultConfig()
	bounded.Policy = Bounded
	cases := []struct {
		reason string
		c      Config
		given  []string
		scope  Scope
		want   map[string]string // field: part of its message
	}{
		{"the budget's quota with the fixed client", withRetries, []string{"budget_tokens"}, Scope{},
			map[string]string{"budget_tokens": "needs client budget (the client is fixed)"}},
		{"the budget's quota with the budget client", budget, []string{"budget_tokens", "budget_refill", "client", "retries"}, Scope{}, nil},
		{"the quota without retries", func() Config { c := budget; c.Retries = 0; return c }(), []string{"budget_tokens", "client"}, Scope{},
			map[string]string{"budget_tokens": "needs retries above 0", "client": "the budget client only decides retries"}},
		{"throttling works on first attempts", throttle, []string{"throttle_k", "client_window_s", "client"}, Scope{}, nil},
		{"a window for a client that keeps none", budget, []string{"client_window_s"}, Scope{},
			map[string]string{"client_window_s": "needs client ratio or client throttle (the client is budget)"}},
		{"a series' step where no series is shown (issue 27, item 5)", DefaultConfig(), []string{"series_step_s"}, Scope{EveryPolicy: true},
			map[string]string{"series_step_s": "changes only a run's time series, which nothing here shows"}},
		{"a series' step where one is", DefaultConfig(), []string{"series_step_s"}, Scope{Series: true}, nil},
		{"a refusal cost for a policy that never refuses (issue 27, item 5)", DefaultConfig(), []string{"refusal_cost_ms"}, Scope{},
			map[string]string{"refusal_cost_ms": "needs policy bounded"}},
		{"every client compared reads every client's settings", withRetries, []string{"budget_tokens", "ratio_max", "backoff_cap_ms"}, Scope{EveryClient: true}, nil},
		{"but not without retries", DefaultConfig(), []string{"budget_tokens", "throttle_k"}, Scope{EveryClient: true},
			map[string]string{"budget_tokens": "needs retries above 0"}},
		{"jitter without retries", DefaultConfig(), []string{"retry_jitter_ms", "retry_delay_ms"}, Scope{},
			map[string]string{"retry_jitter_ms": "needs retries above 0", "retry_delay_ms": "needs retries above 0"}},
		{"a delay backoff replaces", backoff, []string{"retry_delay_ms", "backoff_base_ms"}, Scope{},
			map[string]string{"retry_delay_ms": "counts for nothing with client backoff"}},
		{"a queue bound for the unbounded queue alone", DefaultConfig(), []string{"queue", "codel_target_ms"}, Scope{},
			map[string]string{"queue": "needs policy bounded or policy priority", "codel_target_ms": "needs policy codel or policy lifo"}},
		{"a queue bound for the bounded queue", bounded, []string{"queue"}, Scope{}, nil},
		{"a queue bound when every policy runs", DefaultConfig(), []string{"queue", "codel_interval_ms"}, Scope{EveryPolicy: true}, nil},
		{"settings every run reads, and keys it does not know", DefaultConfig(), []string{"workers", "seed", "sale_rps", "nonsense"}, Scope{}, nil},
		{"the share of orders where nothing shows orders and no policy puts them first (issue 27, item 5)", DefaultConfig(), []string{"order_share"}, Scope{EveryClient: true},
			map[string]string{"order_share": "needs policy priority (the policy is fifo): only it treats orders apart"}},
		{"the share of orders under priority for orders", func() Config { c := DefaultConfig(); c.Policy = Priority; return c }(), []string{"order_share"}, Scope{EveryClient: true}, nil},
		{"the share of orders where a Result shows how they fared", DefaultConfig(), []string{"order_share"}, Scope{Series: true, Orders: true}, nil},
		{"the share of orders when every policy runs", DefaultConfig(), []string{"order_share"}, Scope{EveryPolicy: true}, nil},
		{"the client where every client runs", withRetries, []string{"client"}, Scope{EveryClient: true},
			map[string]string{"client": "counts for nothing where every client strategy runs"}},
		{"the budget's cost of a refusal under a policy that never refuses", budget, []string{"budget_refusal_cost", "budget_timeout_cost"}, Scope{},
			map[string]string{"budget_refusal_cost": "needs policy bounded"}},
		{"and under one that refuses", func() Config { c := budget; c.Policy = Bounded; return c }(), []string{"budget_refusal_cost"}, Scope{}, nil},
	}
	for _, tc := range cases {
		err := tc.c.Unused(tc.given, tc.scope)
		got := map[string]string{}
		for _, fe := range FieldErrors(err) {
			got[fe.Field] = fe.Msg
		}
		assert.Len(t, got, len(tc.want), "%s: %v", tc.reason, err)
		for field, part := range tc.want {
			assert.Contains(t, got[field], part, tc.reason)
		}
	}
}

// TestSay: a message that names settings spells them as the caller does.
func TestSay(t *testing.T) {
	c := DefaultConfig()
	c.Retries = 3
	fes := FieldErrors(c.Unused([]string{"budget_tokens"}, Scope{}))
	if assert.Len(t, fes, 1) {
		flags := func(key, value string) string {
			if value != "" {
				return "--" + key + " " + value
			}
			return "--" + key
		}
		assert.Equal(t, "needs --client budget (the client is fixed): add it, or leave out --budget_tokens", fes[0].Say(flags))
		assert.Equal(t, "needs client budget (the client is fixed): add it, or leave out budget_tokens", fes[0].Msg)
	}
	plain := &FieldError{Field: "workers", Msg: "0 is out of range"}
	assert.Equal(t, "0 is out of range", plain.Say(flags0), "a message that names nothing is as it is")
}

func flags0(key, value string) string { return "--" + key }
