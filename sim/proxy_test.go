package sim

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// parseProxy sets each key=value word of text on a Proxy, in order.
func parseProxy(text string) (Proxy, error) {
	var p Proxy
	for _, w := range strings.Fields(text) {
		k, v, _ := strings.Cut(w, "=")
		if err := p.set(k, v); err != nil {
			return p, err
		}
	}
	return p, nil
}

// proxyProblems is what check says of p, "key: msg" each.
func proxyProblems(p Proxy) []string {
	var out []string
	p.check(func(key, msg string) { out = append(out, key+": "+msg) })
	return out
}

func TestProxyPresets(t *testing.T) {
	assert.Equal(t, []string{"none", "envoy", "istio", "linkerd", "grpc"}, ProxyPresetKeys())
	for _, c := range []struct {
		key    string
		want   Proxy
		reason string
	}{
		{"none", withBudgetDefaults(Proxy{}), "no retries, whatever the budget's settings"},
		{"envoy", withBudgetDefaults(Proxy{Retries: 1, Backoff: EnvoyBackoff, BackoffBaseMS: 25, BackoffMaxMS: 250, Budget: EnvoyMaxRetries}),
			"num_retries 1, 25 ms base, 10 x base, max_retries 3 when no retry_budget is set"},
		{"istio", withBudgetDefaults(Proxy{Retries: 2, RetryOn: RetryRefusals, Backoff: EnvoyBackoff, BackoffBaseMS: 25, BackoffMaxMS: 250}),
			"attempts 2 on connect-failure, refused-stream, unavailable...; max_retries 2^32-1, no limit"},
		{"linkerd", withBudgetDefaults(Proxy{Retries: 100, RetryOn: RetryRefusals, Budget: LinkerdBudget}),
			"a ServiceProfile counts no retries per call and does not back off; 5xx are failures"},
		{"grpc", withBudgetDefaults(Proxy{Retries: 3, RetryOn: RetryRefusals, Backoff: GRPCBackoff, BackoffBaseMS: 100, BackoffMaxMS: 1000, BackoffMultiplier: 2, Budget: GRPCThrottle}),
			"A6's example: maxAttempts 4, 0.1 s, 1 s, x2, UNAVAILABLE; throttling 10, 0.1"},
	} {
		got, ok := ProxyPreset(c.key)
		require.True(t, ok, c.key)
		assert.Equal(t, c.want, got, c.reason)
		assert.Empty(t, proxyProblems(got), c.key)
		assert.Equal(t, "proxy="+c.key, string(got.appendText(nil)), c.key)
	}
	_, ok := ProxyPreset("nginx")
	assert.False(t, ok)
	assert.Equal(t, Proxy{BudgetPercent: 20, MinRetryConcurrency: 3, MaxRetries: 3, RetryRatio: 0.2, MinRetriesPerS: 10, TTLS: 10, MaxTokens: 10, TokenRatio: 0.1},
		budgetDefaults, "each budget's published defaults")
	none, _ := ProxyPreset("none")
	assert.Nil(t, none.newBudget())
	assert.Empty(t, proxyProblems(Proxy{}), "the zero value retries nothing and is valid")
}

func TestProxyRetriesOn(t *testing.T) {
	for _, c := range []struct {
		on               RetryOn
		refused, timeout bool
	}{{RetryBoth, true, true}, {RetryRefusals, true, false}, {RetryTimeouts, false, true}} {
		p := Proxy{RetryOn: c.on}
		assert.Equal(t, c.refused, p.retriesOn(true), c.on.String())
		assert.Equal(t, c.timeout, p.retriesOn(false), c.on.String())
	}
}

func TestProxyBackoff(t *testing.T) {
	const ms = 1_000_000
	envoy, _ := ProxyPreset("envoy")
	grpc, _ := ProxyPreset("grpc")
	linkerd, _ := ProxyPreset("linkerd")
	odd := Proxy{Backoff: EnvoyBackoff, BackoffBaseMS: 3, BackoffMaxMS: 7}
	tenX := Proxy{Backoff: EnvoyBackoff, BackoffBaseMS: 25}
	for _, c := range []struct {
		p      Proxy
		retry  int32
		u      float64
		want   int64
		reason string
	}{
		// Envoy: I = 25, 50, 100, 200, then 250; the wait is floor(u x I) whole ms.
		{envoy, 1, 0, 0, "u = 0 waits nothing"},
		{envoy, 1, 0.5, 12 * ms, "floor(0.5 x 25) = 12 ms"},
		{envoy, 1, 0.999999, 24 * ms, "below I: 24 ms at most, as random() % 25"},
		{envoy, 2, 0.5, 25 * ms, "I = 50"},
		{envoy, 3, 0.5, 50 * ms, "I = 100"},
		{envoy, 4, 0.5, 100 * ms, "I = 200: 100 < 250 / 2 doubled it"},
		{envoy, 5, 0.5, 125 * ms, "I = 250: 200 >= 125, so max"},
		{envoy, 9, 0.999999, 249 * ms, "capped at 250"},
		{odd, 2, 0.999999, 6 * ms, "max 7: 3 is not under 7 / 2 = 3, so I jumps to 7, not 6"},
		{tenX, 9, 0.5, 125 * ms, "max 0 is 10 x base, 250"},
		// gRPC: min(100 x 2^(n-1), 1000) ms x (0.8 + 0.4 u).
		{grpc, 1, 0, 80 * ms, "0.8 x 100 ms"},
		{grpc, 1, 0.5, 100 * ms, "1.0 x 100 ms"},
		{grpc, 3, 0.5, 400 * ms, "100 x 2^2"},
		{grpc, 4, 0.5, 800 * ms, "100 x 2^3"},
		{grpc, 5, 0.5, 1000 * ms, "1,600 capped at 1,000"},
		{grpc, 5, 0, 800 * ms, "the jitter applies after the cap: 0.8 x 1,000"},
		{linkerd, 1, 0.5, 0, "a ServiceProfile retries at once"},
		{linkerd, 7, 0.999, 0, "at once, whatever the retry"},
	} {
		assert.Equal(t, c.want, c.p.backoffNS(c.retry, c.u), c.reason)
	}
	// 0.4 x 0.999 + 0.8 = 1.1996 is not exact in binary: within a ns.
	assert.InDelta(t, 119_960_000, grpc.backoffNS(1, 0.999), 1, "1.1996 x 100 ms")
	assert.InDelta(t, 1_199_600_000, grpc.backoffNS(9, 0.999), 10, "1.1996 x the cap: gRPC's wait may pass maxBackoff")
}

func TestProxyTextRoundTrip(t *testing.T) {
	for _, c := range []struct {
		text   string
		reason string
	}{
		{"proxy=envoy", "a preset alone"},
		{"proxy=envoy retries=2", "one setting off the preset"},
		{"proxy=istio per_try_timeout_ms=250 retry_on=both", "two"},
		{"proxy=grpc budget=none", "the throttling off"},
		{"proxy=envoy budget=envoy budget_percent=12.5", "a float"},
		{"proxy=linkerd retry_ratio=0.1 ttl_s=5", "Linkerd's own"},
		{"proxy=none budget_percent=0 min_retry_concurrency=0 max_retries=0 retry_ratio=0 min_retries_per_s=0 ttl_s=0 max_tokens=0 token_ratio=0",
			"the zero value, nearest to none"},
	} {
		p, err := parseProxy(c.text)
		require.NoError(t, err, c.reason)
		assert.Equal(t, c.text, string(p.appendText(nil)), c.reason)
	}
	zero := Proxy{}
	back, err := parseProxy(string(zero.appendText(nil)))
	require.NoError(t, err)
	assert.Equal(t, zero, back)

	// Random proxies, valid or not: the text gives each back.
	s := newStream(25, streamJitter)
	pick := func(xs ...float64) float64 { return xs[s.Uint64()%uint64(len(xs))] }
	for i := 0; i < 2000; i++ {
		p := proxyPresets[s.Uint64()%uint64(len(proxyPresets))].proxy
		for j := s.Uint64() % 6; j > 0; j-- {
			switch s.Uint64() % 16 {
			case 0:
				p.Retries = int(pick(0, 1, 2, 4, 100))
			case 1:
				p.PerTryTimeoutMS = pick(0, 0.001, 250, 1e-7, 3.5)
			case 2:
				p.RetryOn = RetryOn(pick(0, 1, 2))
			case 3:
				p.Backoff = BackoffKind(pick(0, 1, 2))
			case 4:
				p.BackoffBaseMS = pick(0, 25, 0.1, 1e300)
			case 5:
				p.BackoffMaxMS = pick(0, 250, 1000.25)
			case 6:
				p.BackoffMultiplier = pick(0, 2, 1.5, 0.3)
			case 7:
				p.Budget = BudgetKind(pick(0, 1, 2, 3, 4))
			case 8:
				p.BudgetPercent = pick(0, 20, 33.3, 100)
			case 9:
				p.MinRetryConcurrency = int(pick(0, 3, 10))
			case 10:
				p.MaxRetries = int(pick(0, 3, 1024))
			case 11:
				p.RetryRatio = pick(0, 0.2, 0.3, 1000)
			case 12:
				p.MinRetriesPerS = int(pick(0, 10, 1))
			case 13:
				p.TTLS = int(pick(0, 10, 60))
			case 14:
				p.MaxTokens = int(pick(0, 10, 1000))
			case 15:
				p.TokenRatio = pick(0, 0.1, 0.001, 1.5)
			}
		}
		text := string(p.appendText(nil))
		back, err := parseProxy(text)
		require.NoError(t, err, text)
		require.Equal(t, p, back, text)
	}
}

func TestProxyTextBadInput(t *testing.T) {
	for _, c := range []struct {
		key, value, want string
	}{
		{"proxy", "nginx", `proxy: "nginx" is not a proxy: use one of none, envoy, istio, linkerd, grpc`},
		{"retries", "two", `retries: "two" is not a whole number: write one such as 3`},
		{"retries", "1.5", `retries: "1.5" is not a whole number: write one such as 3`},
		{"per_try_timeout_ms", "soon", `per_try_timeout_ms: "soon" is not a number: write one such as 25 or 0.5`},
		{"per_try_timeout_ms", "NaN", `per_try_timeout_ms: "NaN" is not a number: write one such as 25 or 0.5`},
		{"retry_on", "sometimes", `retry_on: "sometimes" is not a retry_on: use one of both, refusals, timeouts`},
		{"backoff", "linear", `backoff: "linear" is not a backoff: use one of none, envoy, grpc`},
		{"budget", "aws", `budget: "aws" is not a budget: use one of none, envoy, linkerd, grpc, max-retries`},
		{"timeout_ms", "100", "timeout_ms: is not a proxy setting: use proxy or one of retries, per_try_timeout_ms, retry_on, backoff, " +
			"backoff_base_ms, backoff_max_ms, backoff_multiplier, budget, budget_percent, min_retry_concurrency, max_retries, " +
			"retry_ratio, min_retries_per_s, ttl_s, max_tokens, token_ratio"},
	} {
		var p Proxy
		err := p.set(c.key, c.value)
		require.Error(t, err, c.key)
		assert.Equal(t, c.want, err.Error())
	}
	var p Proxy
	require.NoError(t, p.set("proxy", " Envoy "), "case and spaces do not matter")
	e, _ := ProxyPreset("envoy")
	assert.Equal(t, e, p)
	assert.True(t, isProxyKey("proxy") && isProxyKey("token_ratio") && !isProxyKey("workers"))
}

func TestProxyCheck(t *testing.T) {
	preset := func(k string) Proxy { p, _ := ProxyPreset(k); return p }
	with := func(p Proxy, f func(*Proxy)) Proxy { f(&p); return p }
	for _, c := range []struct {
		p      Proxy
		want   []string
		reason string
	}{
		{with(preset("envoy"), func(p *Proxy) { p.Retries = 101 }),
			[]string{"retries: 101 is too large: use a whole number from 0 to 100"}, "the most retries"},
		{with(preset("envoy"), func(p *Proxy) { p.Retries = -1 }),
			[]string{"retries: -1 is too small: use a whole number from 0 to 100"}, "no fewer than none"},
		{with(preset("grpc"), func(p *Proxy) { p.Retries = 5 }),
			[]string{"retries: 5 is too large: use a whole number from 0 to 4: gRPC treats maxAttempts over 5 as 5"}, "A6's cap"},
		{with(preset("istio"), func(p *Proxy) { p.Budget = GRPCThrottle; p.Retries = 5 }),
			[]string{"retries: 5 is too large: use a whole number from 0 to 4: gRPC treats maxAttempts over 5 as 5"}, "the throttle is a gRPC channel's too"},
		{with(preset("istio"), func(p *Proxy) { p.PerTryTimeoutMS = 1e-4 }),
			[]string{"per_try_timeout_ms: 0.0001 is too small: use a number from 0.001 to 3,600,000 ms, or 0 for none"}, "a per-try timeout"},
		{with(preset("istio"), func(p *Proxy) { p.RetryOn = RetryTimeouts }),
			[]string{"retry_on: timeouts retries nothing without a per-try timeout: set per_try_timeout_ms, or use retry_on=refusals or both"}, "timeouts alone need a per-try timeout"},
		{with(preset("istio"), func(p *Proxy) { p.RetryOn = 7 }),
			[]string{"retry_on: 7 is not a retry_on: use one of both, refusals, timeouts"}, "out of the set"},
		{with(preset("envoy"), func(p *Proxy) { p.BackoffBaseMS = 25.5 }),
			[]string{"backoff_base_ms: 25.5 is not whole: Envoy's backoff counts whole ms: use 26"}, "Envoy's whole ms"},
		{with(preset("envoy"), func(p *Proxy) { p.BackoffBaseMS = 0 }),
			[]string{"backoff_base_ms: 0 is too small: use a number from 1 to 3,600,000 ms"}, "Envoy's base is required"},
		{with(preset("envoy"), func(p *Proxy) { p.BackoffMaxMS = 20 }),
			[]string{"backoff_max_ms: 20 is too small: use a number from 25 to 3,600,000 ms, at least backoff_base_ms, or 0 for 10 x backoff_base_ms"}, "Envoy's max is at least the base"},
		{with(preset("grpc"), func(p *Proxy) { p.BackoffMultiplier = 0 }),
			[]string{"backoff_multiplier: 0 is too small: gRPC's must be above 0: use a number up to 1,000, such as 2"}, "A6: above 0"},
		{with(preset("linkerd"), func(p *Proxy) { p.BackoffBaseMS = -1 }),
			[]string{"backoff_base_ms: -1 is too small: use a number from 0 to 3,600,000, unused with backoff=none"}, "unused, but not nonsense"},
		{with(preset("envoy"), func(p *Proxy) { p.Budget = EnvoyBudget; p.BudgetPercent = 120 }),
			[]string{"budget_percent: 120 is too large: use a number from 0 to 100 %"}, "a percentage"},
		{with(preset("envoy"), func(p *Proxy) { p.Budget = EnvoyBudget; p.BudgetPercent = 0; p.MinRetryConcurrency = 0 }),
			[]string{"budget_percent: 0 with min_retry_concurrency=0 allows no retry: use a number from 0 to 100 %, with min_retry_concurrency 1 or more, or retries=0"}, "a budget that allows nothing"},
		{with(preset("envoy"), func(p *Proxy) { p.MaxRetries = 0 }),
			[]string{"max_retries: 0 is too small: use a whole number from 1 to 1,000,000, or retries=0 for none"}, "the breaker at 0"},
		{with(preset("linkerd"), func(p *Proxy) { p.TTLS = 61 }),
			[]string{"ttl_s: 61 is too large: use a whole number from 1 to 60 s, as Linkerd takes it"}, "tower's 1 to 60 s"},
		{with(preset("linkerd"), func(p *Proxy) { p.RetryRatio = 1001 }),
			[]string{"retry_ratio: 1,001 is too large: use a number from 0 to 1,000"}, "tower's 0 to 1,000"},
		{with(preset("grpc"), func(p *Proxy) { p.TokenRatio = 0.0004 }),
			[]string{"token_ratio: 0.0004 is too small: gRPC keeps 3 decimal places: use a number from 0.001 to 1,000"}, "A6's three decimals"},
		{with(preset("grpc"), func(p *Proxy) { p.MaxTokens = 1001 }),
			[]string{"max_tokens: 1,001 is too large: use a whole number from 1 to 1,000"}, "A6: (0, 1000]"},
		{with(preset("envoy"), func(p *Proxy) { p.TTLS = 0; p.MaxTokens = 0 }),
			nil, "a budget not chosen may be unset"},
		{with(preset("envoy"), func(p *Proxy) { p.TTLS = 99 }),
			[]string{"ttl_s: 99 is too large: use a whole number from 1 to 60 s, as Linkerd takes it"}, "but not out of range"},
	} {
		assert.Equal(t, c.want, proxyProblems(c.p), c.reason)
	}
}
