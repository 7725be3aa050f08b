package sim

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const second = int64(1e9)

// allows asks b for n retries at t and returns how many it allowed.
func allows(b retryBudget, t int64, n int) int {
	k := 0
	for i := 0; i < n; i++ {
		if b.allow(t) {
			k++
		}
	}
	return k
}

// TestProxyBudgetLinkerdByHand walks tower's TpsBudget with Linkerd's
// defaults (0.2, 10/s, 10 s): a retry takes trunc(1 / 0.2) = 5 tokens, a
// deposit adds 1, the reserve is 10 x 10 x 5 = 500 tokens, the window 1 s.
func TestProxyBudgetLinkerdByHand(t *testing.T) {
	p, _ := ProxyPreset("linkerd")
	b := p.newBudget().(*linkerdBudget)
	assert.Equal(t, [3]int64{500, 1, 5}, [3]int64{b.reserve, b.deposit, b.withdraw})
	assert.Equal(t, second, b.window)

	// No requests: the reserve gives min_per_sec x TTL = 100 retries.
	assert.Equal(t, 100, allows(b, 0, 101), "100 retries, then refused")
	// Exactly a TTL later: 10 windows have passed; tower stores the writer
	// (-500) in slot 0, zeroes slots 1 to 9 (9 windows past the first) and
	// makes slot 0 current again, -500 still in it: balance 0.
	assert.False(t, b.allow(10*second), "a TTL on, the withdrawals still count")
	// A window later, slot 0 is written over with this generation's 0.
	assert.Equal(t, 100, allows(b, 11*second, 101), "the reserve is back")

	// Deposits: with no reserve, 10 answers pay for 2 retries.
	q := p
	q.MinRetriesPerS = 0
	c := q.newBudget()
	for i := 0; i < 10; i++ {
		c.sent(0, false)
		c.ended(0, false, tryAnswered)
	}
	assert.Equal(t, 2, allows(c, 0, 3), "10 tokens, 5 a retry")

	// What deposits: a try the proxy does not retry. retry_on=refusals: a
	// refusal deposits nothing (its retry withdraws); a per-try timeout,
	// not retried, deposits; a call given up deposits nothing.
	q.RetryRatio = 1 // a retry takes 1 token
	d := q.newBudget()
	d.ended(0, false, tryRefused)
	d.ended(0, false, tryAbandoned)
	d.ended(0, true, tryUnsent)
	assert.False(t, d.allow(0), "no token yet")
	d.ended(0, false, tryTimedOut)
	assert.True(t, d.allow(0), "the timeout's token")
	assert.False(t, d.allow(0))
}

// TestProxyBudgetLinkerdRoundsWindowsUp shows tower's slots forgetting
// early: each expiry zeroes a slot for every window the time since the
// generation began exceeds, counting the first, so a gap of 1.001 windows
// moves two slots on. Refused retries 1.001 s apart bring the 500 tokens
// withdrawn at 0 back at 6.006 s: 200 retries in 6 s with no request,
// twice min_per_sec x TTL.
func TestProxyBudgetLinkerdRoundsWindowsUp(t *testing.T) {
	p, _ := ProxyPreset("linkerd")
	b := p.newBudget().(*linkerdBudget)
	require.Equal(t, 100, allows(b, 0, 100))
	step := 1001 * second / 1000
	// index after each: 2, 4, 6, 8, 0 (slot 0 still -500: refused), 2.
	for k := int64(1); k <= 5; k++ {
		assert.False(t, b.allow(k*step), "at %d ms", k*step/1e6)
		assert.Equal(t, int((2*k)%10), b.index)
	}
	assert.Equal(t, 100, allows(b, 6*step, 101), "at 6.006 s slot 0 is written over")
}

// TestProxyBudgetLinkerdBound checks tower's bound over random sequences:
// at every retry allowed at s, the retries allowed in the last half TTL,
// this one included, take no more tokens than the reserve plus the
// deposits of the last 1.1 TTL (in retries: min_per_sec x TTL + ratio x
// deposits). A token counts for at least half a TTL, as each expiry moves
// on at least one slot a window and at most two for a window and a bit,
// and at most 1.1 TTL (ten slots and the writer).
func TestProxyBudgetLinkerdBound(t *testing.T) {
	s := newStream(43, streamJitter)
	for run := 0; run < 300; run++ {
		p, _ := ProxyPreset("linkerd")
		p.RetryRatio = []float64{0.2, 0.1, 0.5, 0.3, 2}[s.Uint64()%5]
		p.MinRetriesPerS = []int{0, 1, 10}[s.Uint64()%3]
		p.TTLS = []int{1, 10, 3}[s.Uint64()%3]
		b := p.newBudget().(*linkerdBudget)
		ttl := int64(p.TTLS) * second
		var deposits, retries []int64
		now := int64(0)
		for step := 0; step < 600; step++ {
			switch r := s.Uint64() % 10; {
			case r < 5:
				now += int64(s.Uint64() % uint64(b.window/10+1))
			case r < 8:
				now += b.window/2 + int64(s.Uint64()%uint64(2*b.window))
			case r < 9:
				now += b.window * 10
			}
			if s.Uint64()%10 < 6 {
				b.ended(now, false, tryAnswered)
				deposits = append(deposits, now)
				continue
			}
			b.ended(now, false, tryRefused)
			if !b.allow(now) {
				continue
			}
			retries = append(retries, now)
			count := func(ts []int64, from int64) int64 {
				n := int64(0)
				for _, x := range ts {
					if x > from {
						n++
					}
				}
				return n
			}
			r := count(retries, now-ttl/2)
			d := count(deposits, now-ttl-ttl/10)
			require.LessOrEqual(t, r*b.withdraw, b.reserve+d*b.deposit,
				"run %d at %d ns: %d retries in half a TTL for %d deposits", run, now, r, d)
		}
	}
}
