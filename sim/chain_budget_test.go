package sim

import (
	"strconv"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// listener wraps a proxy's budget to hear every event the engine tells it,
// so that a test can hold the engine and the budget to a rule at each
// retry, counting for itself what the budget counts.
type listener struct {
	retryBudget
	sentAt  func(t int64, retry bool)
	endedAt func(t int64, retry bool, end tryEnd)
	allowed func(t int64, ok bool)
}

func (l *listener) sent(t int64, retry bool) {
	l.retryBudget.sent(t, retry)
	if l.sentAt != nil {
		l.sentAt(t, retry)
	}
}

func (l *listener) ended(t int64, retry bool, end tryEnd) {
	l.retryBudget.ended(t, retry, end)
	if l.endedAt != nil {
		l.endedAt(t, retry, end)
	}
}

func (l *listener) allow(t int64) bool {
	ok := l.retryBudget.allow(t)
	if l.allowed != nil {
		l.allowed(t, ok)
	}
	return ok
}

// runListened runs c's chain with l listening to the budget of hop k's
// proxy (1 for the first behind the entry).
func runListened(t *testing.T, c Config, k int, l *listener) Result {
	t.Helper()
	require.NoError(t, c.Validate())
	es := newChain(c)
	require.NotNil(t, es[k].budget, "hop %d has a budget", k)
	l.retryBudget = es[k].budget
	es[k].budget = l
	runLinked(es)
	return chainResult(c, es)
}

// TestChainEnvoyBudget: over a run through Envoy's retry budget, counted
// apart from the budget, the retries at once (allowed and not yet ended)
// never exceed max(trunc(20% x tries out), 3) at any retry, and the limit
// binds: some retries are refused (rule 42).
func TestChainEnvoyBudget(t *testing.T) {
	c := DefaultConfig()
	c.Workers = 200
	c.Hops = "payments: workers=8 service_ms=80 timeout_ms=1500 proxy=envoy budget=envoy retries=3 per_try_timeout_ms=300"
	var out, retrying, allowed, refused int64
	l := &listener{
		sentAt: func(_ int64, _ bool) { out++ },
		endedAt: func(_ int64, retry bool, end tryEnd) {
			if end != tryUnsent {
				out--
			}
			if retry {
				retrying--
			}
		},
		allowed: func(at int64, ok bool) {
			if !ok {
				refused++
				return
			}
			allowed++
			retrying++
			limit := max(int64(float64(0.2*float64(out))), 3)
			if retrying > limit {
				t.Fatalf("at %d ns: %d retries at once, over max(20%% of %d tries out, 3) = %d", at, retrying, out, limit)
			}
		},
	}
	r := runListened(t, c, 1, l)
	t.Logf("%d retries allowed, %d refused, of %d tries", allowed, refused, r.Hops[0].Result.Attempts)
	assert.Positive(t, allowed)
	assert.Positive(t, refused, "the budget binds")
	assert.Equal(t, int(refused), r.Hops[0].Result.Client.Declined)
	assert.Equal(t, int(allowed), r.Hops[0].Result.Client.Retries)
}

// quietErrors is a chain whose one hop answers each try with an error with
// probability p, at so light a load that each call ends long before the
// next begins: the proxy meets one failure after another in order.
func quietErrors(p float64, proxy string) Config {
	c := DefaultConfig()
	c.NormalRPS, c.SaleRPS, c.SaleStartS, c.SaleS, c.DurationS = 0.5, 0.5, 0, 0, 600
	c.Workers, c.ServiceMS = 4, 1
	c.Hops = "api: workers=4 service_ms=1 timeout_ms=10000 " + proxy + " errors=" + strconv.FormatFloat(p, 'g', -1, 64)
	return c
}

// TestChainGRPCThrottle: through gRPC's throttle, from a full bucket of
// 10, every try failing, 4 attempts a call at most: the first call's 4
// tries fail (9, 8, 7, 6: three retried, the last its 4th attempt), the
// second's first fails at 5, not over 10/2, and is the first failure not
// retried; no call is retried again, since nothing succeeds (rule 44). So
// the hop receives the calls and 3 retries, asserted exactly. And under a
// steady failure probability p the throttle lets retries through while p
// is under 0.1/1.1 (9.09%), and almost none above.
func TestChainGRPCThrottle(t *testing.T) {
	r, err := Run(quietErrors(1, "proxy=grpc"))
	require.NoError(t, err)
	h := r.Hops[0].Result
	require.Greater(t, h.People, 100)
	assert.Equal(t, h.People+3, h.Attempts)
	assert.Equal(t, 3, h.Client.Retries)

	share := func(p float64) float64 {
		c := quietErrors(p, "proxy=grpc")
		c.NormalRPS, c.SaleRPS = 50, 50
		r, err := Run(c)
		require.NoError(t, err)
		h := r.Hops[0].Result
		failures := float64(h.ErrorAnswers)
		return float64(h.Client.Retries) / failures // retries per failure
	}
	assert.Greater(t, share(0.05), 0.9, "5%: almost every failure retried")
	assert.Less(t, share(0.15), 0.25, "15%: few retried")
}

// TestChainLinkerdBudget: through Linkerd's budget, with no successes to
// deposit (every try fails), the retries come from its reserve alone,
// min_retries_per_s x ttl_s = 100, which tower's windows let through at
// most once in any half TTL (rule 43); and with successes, retries stay
// within 20% of the calls plus that reserve.
func TestChainLinkerdBudget(t *testing.T) {
	c := quietErrors(1, "proxy=linkerd")
	c.NormalRPS, c.SaleRPS, c.DurationS = 100, 100, 20
	r, err := Run(c)
	require.NoError(t, err)
	h := r.Hops[0].Result
	assert.Positive(t, h.Client.Retries)
	assert.LessOrEqual(t, h.Client.Retries, 400, "at most the reserve in any half TTL, 5 s, and 20 s is four")

	c = quietErrors(0.3, "proxy=linkerd")
	c.NormalRPS, c.SaleRPS, c.DurationS = 100, 100, 120
	r, err = Run(c)
	require.NoError(t, err)
	h = r.Hops[0].Result
	calls := h.People
	assert.LessOrEqual(t, float64(h.Client.Retries), 0.2*float64(calls)+100*24, "20% of the calls, and the reserve each half TTL")
	assert.Greater(t, float64(h.Client.Retries), 0.2*float64(calls)*0.8, "the budget is used: errors are 30%")
}
