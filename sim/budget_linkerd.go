package sim

import "math"

// linkerdSlots is the number of slots tower's TpsBudget cuts its TTL into.
const linkerdSlots = 10

// linkerdBudget is Linkerd's retry budget (rule 43): tower's TpsBudget,
// read from tower-rs/tower at commit
// 8358ee712c4050650737e361fba242aa8c798ce2
// (tower/src/retry/budget/tps_budget.rs), as linkerd/linkerd2-proxy at
// commit 29637b64f6cebedaf15bfbf516818d7a28a4d5a6 uses it for a
// ServiceProfile's retries (linkerd/app/outbound/src/http/retry.rs): a try
// that ends without the proxy retrying it deposits, and each retry
// withdraws.
//
// The balance is reserve + the writer + the ten slots, in tokens. A deposit
// adds `deposit` to the writer; a withdrawal takes `withdraw` from it if
// the balance is at least that, else it is refused. Before either, the
// budget expires: if a window (TTL / 10) or more has passed since the
// current generation began, the writer is stored in the current slot, and
// the slot after it becomes current; for each further window the time
// since the generation began exceeds (strictly, counting the first one),
// one more slot is zeroed and skipped; the new generation begins now. A
// slot's tokens count until the slot is written again, so a deposit counts
// from about half the TTL to 1.1 TTL.
//
// Its cost is O(1) an event.
type linkerdBudget struct {
	retryOn  RetryOn
	reserve  int64 // min_per_sec x whole seconds of TTL x withdraw
	deposit  int64 // tokens a deposit adds
	withdraw int64 // tokens a retry takes
	window   int64 // ns, TTL / 10
	slots    [linkerdSlots]int64
	writer   int64 // the current generation's tokens
	index    int   // the current generation's slot
	gen      int64 // ns, when the current generation began
}

func newLinkerdBudget(p Proxy) *linkerdBudget {
	b := &linkerdBudget{retryOn: p.RetryOn}
	// tower takes retry_percent as an f32.
	r := float32(p.RetryRatio)
	switch {
	case r <= 0:
		b.deposit, b.withdraw = 0, 1
	case r <= 1:
		b.deposit, b.withdraw = 1, truncF32(1/r)
	default:
		b.deposit, b.withdraw = 1000, truncF32(1000/r)
	}
	ttl := int64(max(p.TTLS, 1))
	b.window = ttl * 1e9 / linkerdSlots
	b.reserve = satMul(satMul(int64(max(p.MinRetriesPerS, 0)), ttl), b.withdraw)
	return b
}

// truncF32 is Rust's `x as isize`: truncation, saturating.
func truncF32(x float32) int64 {
	switch {
	case !(x > 0):
		return 0
	case x >= math.MaxInt64:
		return math.MaxInt64
	}
	return int64(x)
}

// satMul is a x b for a, b >= 0, saturating at math.MaxInt64.
func satMul(a, b int64) int64 {
	if a != 0 && b > math.MaxInt64/a {
		return math.MaxInt64
	}
	return a * b
}

// expire rotates the slots up to now, as TpsBudget::expire does.
func (b *linkerdBudget) expire(now int64) {
	diff := now - b.gen
	if diff < b.window { // includes a time before gen: saturating_duration_since gives 0
		return
	}
	b.slots[b.index] = b.writer
	b.writer = 0
	// tower zeroes a slot for each window diff exceeds, counting the
	// first: n = ceil(diff / window) - 1, which is (diff - 1) / window.
	n := (diff - 1) / b.window
	idx := (b.index + 1) % linkerdSlots
	for i := int64(0); i < n && i < linkerdSlots; i++ {
		b.slots[(idx+int(i))%linkerdSlots] = 0
	}
	b.index = int((int64(idx) + n%linkerdSlots) % linkerdSlots)
	b.gen = now
}

// balance is the tokens the budget holds.
func (b *linkerdBudget) balance() int64 {
	s := b.writer + b.reserve
	for _, x := range b.slots {
		s += x
	}
	return s
}

func (b *linkerdBudget) sent(t int64, retry bool) {}

func (b *linkerdBudget) ended(t int64, retry bool, end tryEnd) {
	switch end {
	case tryAnswered:
	case tryRefused, tryTimedOut:
		if (Proxy{RetryOn: b.retryOn}).retriesOn(end == tryRefused) {
			return // the retry, if any, withdraws
		}
	default:
		return // the call is over: tower's future is dropped, no word
	}
	b.expire(t)
	b.writer += b.deposit
}

func (b *linkerdBudget) allow(t int64) bool {
	b.expire(t)
	if b.balance() >= b.withdraw {
		b.writer -= b.withdraw
		return true
	}
	return false
}
