package sim

import (
	"math"
	"math/bits"
)

// newcomers is the arrival-order path's loop for the attempt it meets
// most: a new person's first, while no retry waits to be sent. It takes
// exactly the Configs the path takes with fifo, the post's service times
// (exponential, never stretched), no series, and retries at a fixed delay
// (no jitter and not the backoff client: retriesVary false); in the
// others it never runs.
//
// It works each attempt out before it takes anything: the next new
// arrival's draw and the service's, peeked from their streams, the queue
// as the attempt finds it, when it leaves the queue (Kiefer and
// Wolfowitz, as in arrivalOrder) and how it ends. Only if that is the
// common case does it take it: the draws, the counts, the queue and the
// worker. The common case is an attempt answered, or timed out with no
// retry to follow, before the run's end, whose draws fall inside their
// ziggurat layers, with no tie, and no window or rate boundary before the
// next new arrival. Anything else (newcomersLeft lists it) it leaves,
// untouched, to arrivalOrder's loop, which computes every attempt, and
// returns. So the attempts it computes are computed as that loop computes
// them, to the bit (the differential tests and FuzzArrivalOrder hold the
// two paths equal; TestNewcomers that each way out is met).
//
// What it is for: under WebAssembly, every branch taken goes back through
// the function's dispatch table, with every value live across the loop
// moved into place. Its loop takes about four such branches an attempt
// against arrivalOrder's eighteen (its walk to the workers' root, written
// out, takes none), and keeps fewer values live; it computes 95% of a
// default run's attempts. What that saves is in sim/PERF.md.

// Why newcomers left an attempt to arrivalOrder's loop (counted for tests
// in engine.newcomersLeft).
const (
	leftAtWindow      = iota // a new window, or the run's end
	leftBeyondArrival        // the next new arrival's draw is beyond its layer
	leftAtRate               // the rate changes before the next new arrival
	leftBeyondService        // its service time's draw is beyond its layer
	leftAtEnd                // unfinished at the end, or still waiting
	leftAtTimeout            // a timeout the run never reaches, or one a retry follows
	leftForRoom              // no room to join the queue
	newcomersLeaves          // how many ways out
)

// crowd is arrivalOrder's state that newcomers reads and carries on.
type crowd struct {
	gap       float64 // the new arrivals' mean gap, ns, until limit
	limit     int64   // where that rate ends, or the run's end, ns
	windowEnd int64   // the end of the new people's window, ns
	newMade   int64   // when the next new arrival was drawn, ns
	waiting   []int64 // when each attempt still waiting leaves the queue
	left      int     // waiting[left:] have not left
	window    int16   // the new people's window
	before    counted // the counts as newcomers starts, kept here, not in the loop's values
}

// counted is some of the engine's counts as newcomers starts, from which
// the counts that follow from the others are settled once it stops.
type counted struct {
	attempts, answered int   // the window's
	sale, saleAnswered int   // the sale's attempts and answered
	usefulNS           int64 // the workers' useful time
}

// newcomersTake reports whether newcomers may compute attempts of e's
// Config.
func (e *engine) newcomersTake() bool {
	return e.admitRule == admitAll && e.shedRule == shedNothing && e.lines.plain && e.series == nil && !e.retriesVary()
}

// newcomers computes new people's first attempts from c's state, as
// described above, until it meets one that is not the common case, which
// it leaves to the caller.
func (e *engine) newcomers(c *crowd, free freeTree) {
	gap, limit, window, windowEnd := c.gap, c.limit, c.window, c.windowEnd
	earliest := free[1] // the tree's root
	// The queue, queue[left:len(queue)-1], keeps math.MaxInt64 in its last
	// place, so that its front is read without a test of its length.
	queue, left := roomInQueue(c.waiting, c.left, 2)
	queue = append(queue, math.MaxInt64)
	w := &e.windows[window]
	c.before = counted{attempts: w.Attempts, answered: w.Answered, sale: e.saleAttempts, saleAnswered: e.sale.Answered, usefulNS: e.usefulNS}
	end, timeout, mean := e.end, e.timeout, e.draw.mean
	// A timeout from mayTimeOut on is not the common case: the run's end
	// with no retries (a timed-out first attempt is its person's last),
	// and any time with them.
	mayTimeOut := end
	if e.retries > 0 {
		mayTimeOut = math.MinInt64
	}
	var why int
	arrivalsState, serviceState := e.arrivals.state, e.service.state
	for {
		at := e.arrival
		if at >= windowEnd { // a new window (or the run's end)
			why = leftAtWindow
			break
		}
		// The next new arrival's draw, not yet taken (expLayer).
		nextArrivals := arrivalsState + splitmixGamma
		ua, _, ok := layerDraw(mix64(nextArrivals))
		if !ok { // beyond its layer
			why = leftBeyondArrival
			break
		}
		da := float64(gap * ua)
		if !(da < float64(limit-at)) { // the rate changes first, or the run ends
			why = leftAtRate
			break
		}
		// The queue as it finds it: those that have not left by at. The
		// first step is taken by arithmetic, not a branch (queue[left] - at
		// - 1 is negative just when queue[left] <= at; times are under 2^47 ns
		// and the sentinel math.MaxInt64, so it never overflows): under
		// WebAssembly each turn of the loop is a jump through the function's
		// table, and this takes 8.9 K of a default run's 102 K.
		left += int(uint64(queue[left]-at-1) >> 63)
		for queue[left] <= at { // one leaving as it arrives has left (rankService)
			left++
		}
		// The worker read from the root in memory, not from earliest: so no
		// load's address follows from the walk's minima below, and the
		// compiler makes them selects, not branches (for wasm, see
		// earlier_js.go).
		top, k := int64(earliest>>workerBits)-1, int(free[1]&workerMask)
		p := max(at, top)
		// Its service time's draw, not yet taken.
		nextService := serviceState + splitmixGamma
		us, _, ok := layerDraw(mix64(nextService))
		if !ok {
			why = leftBeyondService
			break
		}
		d := float64(mean*us) + 0.5
		if d >= float64(end-p) { // unfinished, or still waiting at the end
			why = leftAtEnd
			break
		}
		done := p + int64(d)
		deadline := at + timeout
		answered := b2i(done < deadline)
		if b2i(done >= deadline)&b2i(deadline >= mayTimeOut) != 0 { // a timeout the run never reaches, or a retry
			why = leftAtTimeout
			break
		}
		if len(queue)+1 > cap(queue) { // no room to join the queue
			why = leftForRoom
			break
		}

		// Taken: the draws.
		arrivalsState, serviceState = nextArrivals, nextService
		e.arrival = at + int64(da)
		order := b2i(e.comesToOrder())
		c.newMade = at
		sale := b2i(uint64(at-e.lines.waveFrom) < e.lines.waveNS)
		// The counts, as countArrival and count make them, but those that
		// follow from these, settled once it stops.
		w := &e.windows[window]
		w.Attempts++
		w.Answered += answered
		e.saleAttempts += sale
		e.sale.Orders += sale & order
		e.sale.Answered += sale & answered
		e.sale.OrdersAnswered += sale & answered & order
		busy := done - p
		e.usefulNS += busy * int64(answered)
		e.wastedNS += busy // less the useful, below
		// The queue: emptied, if it is, then joined, if x waits, then the
		// sentinel.
		n := len(queue) - 1
		empty := b2i(left == n)
		n, left = n*(1-empty), left*(1-empty)
		waits := b2i(p > at)
		queue = queue[:n+1+waits]
		queue[n] = p // the sentinel's place, if x does not wait
		queue[n+waits] = math.MaxInt64
		e.longestQueue = max(e.longestQueue, n+waits-left)
		e.longestWait = max(e.longestWait, p-at)
		if sale != 0 { // noteServed, for the sale's people
			waited := p - at
			e.queueWaits.add(waited)
			e.saleWaited += b2i(waited > 0)
			var carry uint64
			e.saleWaitLo, carry = bits.Add64(e.saleWaitLo, uint64(waited), 0)
			e.saleWaitHi += carry
		}
		// The worker, as free.replace sets it. With eight leaves (up to
		// eight workers, the post's among them) the walk is written out:
		// each turn of replace's loop is a branch taken, under WebAssembly
		// a jump through the function's table (the README's "Under Node").
		// k is under eight; the mask lets the compiler drop the bounds
		// checks.
		if len(free) == 2*writtenOut {
			t, i := (*[2 * writtenOut]uint64)(free), writtenOut+k&(writtenOut-1)
			v := uint64(done+1)<<workerBits | uint64(k)
			t[i] = v
			v = earlier(v, t[i^1])
			i >>= 1
			t[i] = v
			v = earlier(v, t[i^1])
			i >>= 1
			t[i] = v
			earliest = earlier(v, t[i^1])
			t[1] = earliest
		} else {
			earliest = free.replace(k, done)
		}
		if sale&answered != 0 {
			e.waits.add(done - at)
		}
	}
	c.waiting, c.left = queue[:len(queue)-1], left
	e.arrivals.state, e.service.state = arrivalsState, serviceState
	// What follows from the counts above: every attempt here is a person's
	// first, served, and answered or timed out.
	w, before := &e.windows[window], &c.before
	attempts, answered := w.Attempts-before.attempts, w.Answered-before.answered
	w.People += attempts
	w.TimedOut += attempts - answered
	e.wasted += attempts - answered
	sale, saleAnswered := e.saleAttempts-before.sale, e.sale.Answered-before.saleAnswered
	e.sale.People += sale
	e.sale.TimedOut += sale - saleAnswered
	e.wastedNS -= e.usefulNS - before.usefulNS
	e.newcomersTook += attempts
	e.newcomersLeft[why]++
}
