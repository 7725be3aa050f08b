package sim

import (
	"math"
	"slices"
)

// The arrival-order path: the same model as the event loop (engine.go),
// computed without an event list where the service takes requests in the
// order they arrive.
//
// When every worker takes the oldest waiting request, the n-th attempt to
// arrive is the n-th to leave the queue, and it leaves at
//
//	p(n) = max(a(n), the earliest time a worker is free after attempts 1..n-1)
//
// and, if it is served, that worker is next free at p(n) + its service time,
// drawn in that same order. This is Kiefer and Wolfowitz's recursion for the
// first-come-first-served queue with c servers (J. Kiefer and J. Wolfowitz,
// "On the theory of queues with many servers", Trans. Amer. Math. Soc. 78,
// 1955), Lindley's for one (D. V. Lindley, "The theory of queues with a
// single server", Proc. Cambridge Philos. Soc. 48, 1952): a tree of the c
// workers' free times (freeTree) replaces the event list. So an attempt's
// fate is known the moment it arrives: answered, wasted, dropped, refused or
// timed out, and
// whether a retry follows and when. Retries a fixed delay after a timeout or
// a refusal come due in the order they are made, so each kind is a
// first-in-first-out line, merged with the new arrivals by due time; with
// jitter, or the backoff client's or Retry-After's delays, they are made
// (and their delays drawn) in the order the event loop makes them, then
// come due from a heap.
//
// It takes exactly the Configs arrivalOrderTakes accepts: the policies
// fifo, skip, bounded and codel (every one that serves the oldest request
// first), the post's fixed client (with or without jitter), backoff with
// full jitter and, but under codel, Retry-After, and refusals that cost
// nothing, at any value of the model's
// other fields that it knows (the workers, the service's mean and shape,
// rates, sale, duration, the sale's ramps and waves, a slowdown, timeout,
// retries, their delay and jitter, backoff's base and cap, bound, order
// share, CoDel's M and N, seed, the time series' step, and the other
// clients' knobs, which these two never read);
// any field it does not know must be at its default. New arrivals do not depend on the
// service, so a shaped sale's (rule 25) are drawn as the event loop draws
// them, by thinning (redraw), and the waves decide who is the sale's
// (wave). A slowdown (rule 23) stretches a service by when it starts,
// which the path knows when it draws the service's time (p below). The
// series, if asked for, is tallied as the attempts arrive
// (arrivalseries.go). For every such Config it gives the Result the event
// loop gives, to the bit (the differential tests and FuzzArrivalOrder hold
// them equal). Events in the same nanosecond (an arrival as a worker
// finishes, two retries made at once) it orders as rule 1 and the event
// loop do, so it never hands a run back part-way.
//
// Once every worker is busy until the run's end (the stuck queue of the
// post's retry storm), nothing arriving later is served, and the rest of
// the run, each attempt counted, queued and given up on, is waitOut's.
//
// Under fifo, with the post's service times, no series and no jitter,
// the common attempt (a new person's first, answered or timed out for
// good, while no retry waits) is newcomers' (newcomers.go), a smaller loop
// that leaves every other attempt, untouched, to this one.

// arrivalOrderTakes reports whether the arrival-order path computes c's
// Result exactly. It is an allow-list by construction: it sets the fields
// the path handles (or that c's policy and client never read) to their
// defaults and accepts c only if what remains is DefaultConfig, so that a
// field added to Config later is declined until this function learns it.
func arrivalOrderTakes(c Config) bool {
	d := DefaultConfig()
	sp := c.Policy.spec()
	if !sp.arrivalOrder { // lifo and priority take requests out of arrival order
		return false
	}
	if c.Client == RetryAfter && sp.shed == shedOverLimit { // the hint's queue is one the path has not met (below)
		return false
	}
	if ms(c.TimeoutMS) == 0 { // a timeout in the nanosecond of its own arrival, after it: rule 1's order the path does not keep
		return false
	}
	if !c.Policy.Refuses() {
		c.RefusalCostMS = d.RefusalCostMS // unread: it never refuses
	}
	return withoutTakenFields(c) == d
}

// withoutTakenFields is c with the fields both fast paths (the
// arrival-order path and the pickup path, pickup.go) compute at any value
// set to their defaults; each path's allow-list first declines what it
// does not compute of them, then takes c if what remains is DefaultConfig:
// free refusals where they are read, and every field not named here, so
// that a field added to Config later is declined until the paths learn it.
func withoutTakenFields(c Config) Config {
	d := DefaultConfig()
	// The model's fields, any value; the bound and CoDel's M and N are
	// read by the policies they belong to and unread by the others.
	c.Policy, c.Queue, c.CoDelTargetMS, c.CoDelIntervalMS = d.Policy, d.Queue, d.CoDelTargetMS, d.CoDelIntervalMS
	c.Workers, c.ServiceMS, c.OrderShare, c.Seed = d.Workers, d.ServiceMS, d.OrderShare, d.Seed
	c.NormalRPS, c.SaleRPS, c.SaleStartS, c.SaleS, c.DurationS = d.NormalRPS, d.SaleRPS, d.SaleStartS, d.SaleS, d.DurationS
	c.TimeoutMS, c.Retries, c.RetryDelayMS, c.RetryJitterMS = d.TimeoutMS, d.Retries, d.RetryDelayMS, d.RetryJitterMS
	c.SeriesStepS = d.SeriesStepS // the series, as arrivalseries.go records it
	// The sale's shape (rule 25): new arrivals are drawn as the event loop
	// draws them, whatever the rate, and the waves say who is the sale's.
	c.SaleRampS, c.SaleWaves, c.SaleEveryS = d.SaleRampS, d.SaleWaves, d.SaleEveryS
	// The service's shape: its times are drawn in the order services
	// start, whatever their distribution (rule 3a).
	c.Service, c.ServiceP99MS, c.ServiceHistogram = d.Service, d.ServiceP99MS, d.ServiceHistogram
	// A rate table (rule 2b): its rates are the event loop's, through
	// rateAt, and its sale's window is the Config's once Resolved.
	c.Arrivals, c.ArrivalsScale, c.ArrivalsShiftS, c.SaleThresholdRPS = d.Arrivals, d.ArrivalsScale, d.ArrivalsShiftS, d.SaleThresholdRPS
	// A slowdown (rule 23): a service's time is stretched by when it
	// starts, which the path knows when it draws it.
	c.SlowFactor, c.SlowStartS, c.SlowS = d.SlowFactor, d.SlowStartS, d.SlowS
	// The clients: the post's fixed one; backoff with full jitter, whose
	// delays vary as jitter makes the fixed client's, each drawn as its
	// retry is made (variedDelay), whatever came before; and Retry-After,
	// where the refusals' hint is the queue's as the path knows it when it
	// refuses: the bounded queue's, full at an arrival (fifo and skip never
	// refuse, so that it is then the fixed client; codel refuses as a
	// worker takes a request, when the queue holds arrivals the path has
	// not met yet). None reads the other clients' knobs.
	switch c.Client {
	case Fixed, Backoff, RetryAfter:
		c.Client, c.BackoffBaseMS, c.BackoffCapMS = d.Client, d.BackoffBaseMS, d.BackoffCapMS
		c.BudgetTokens, c.BudgetRefusalCost, c.BudgetTimeoutCost, c.BudgetRefill = d.BudgetTokens, d.BudgetRefusalCost, d.BudgetTimeoutCost, d.BudgetRefill
		c.RatioMax, c.ThrottleK, c.ClientWindowS = d.RatioMax, d.ThrottleK, d.ClientWindowS
	}
	return c
}

// arrivalLines is the arrival-order path's memory, kept from run to run by
// Runs.
type arrivalLines struct {
	free     freeTree    // when each worker is next free
	waiting  []int64     // when each attempt still waiting leaves the queue, ns, in arrival (and leaving) order
	timedOut ring[retry] // retries after a timeout, in the order made
	refused  ring[retry] // retries after a refusal, in the order made
	// With jitter, retries are made, in the order the event loop makes
	// them, only once nothing can arrive before they are made: until then
	// they wait in these lines (due unset), and once their jitter is drawn
	// they wait in jittered, which orders them by due time.
	toMakeTimedOut, toMakeRefused ring[retry]
	jittered                      retryHeap
	next                          ring[retry] // the jittered retry arriving next
	made                          uint32      // the retries made with varied delays so far (retry.n)
	series                        stepTally   // the run's Series, if it asks for one (arrivalseries.go)
	// The sale's people among the new arrivals, by inSale's test: those
	// who arrive in [waveFrom, waveFrom + waveNS), the sale's people's
	// window, or for a sale in waves (rule 25) the wave of the next new
	// arrival (wave), which redraw moves on as the new arrivals pass.
	waveFrom int64
	waveNS   uint64
	// plain says the service times are the post's, exponential and never
	// stretched: drawn in the loop itself.
	plain bool
}

// retry is a retry made and not yet sent.
type retry struct {
	due     int64 // when it arrives, ns
	made    int64 // when it was made, ns: a timeout or a refusal
	first   int64 // its person's first arrival, ns
	try     int16 // 2 for the first retry, ... (at most maxRetries + 1)
	window  int16 // its person's window, by first arrival
	order   bool
	sale    bool // its person is one of the sale's (inSale)
	refused bool // made after a refusal, not a timeout
	// afterNew says it was made after the next new person's arrival was
	// drawn, in the same nanosecond: a refusal at an arrival that came
	// after the new person's, or was it (rule 1's order of events).
	afterNew bool
	n        uint32 // with varied delays, the order it was made in
}

// arrivalOrder runs e's Config, which arrivalOrderTakes accepts, by the
// arrival-order recursion, measuring into e as the event loop would.
func (e *engine) arrivalOrder() {
	l := &e.lines
	least := 1 // the fewest leaves: eight where newcomers walks them written out
	if e.newcomersTake() {
		least = writtenOut
	}
	free := l.free.start(e.cfg.Workers, least)
	earliest := free[1]               // the tree's root
	waiting, left := l.waiting[:0], 0 // waiting[left:] have not left the queue
	l.timedOut = ring[retry]{buf: l.timedOut.buf}
	l.refused = ring[retry]{buf: l.refused.buf}
	l.toMakeTimedOut = ring[retry]{buf: l.toMakeTimedOut.buf}
	l.toMakeRefused = ring[retry]{buf: l.toMakeRefused.buf}
	l.jittered, l.made = l.jittered[:0], 0
	l.next = ring[retry]{buf: l.next.buf}
	defer func() { l.free, l.waiting = free, waiting }()
	// Computed, not kept in e.lines: a load from there moves the loop's
	// registers under WebAssembly (sim/PERF.md).
	varied := e.retriesVary()
	var tally *stepTally // nil without a series
	if e.series != nil {
		tally = &l.series
		tally.start(e.series.step, e.end, e.series.points)
	}

	end, timeout, retries := e.end, e.timeout, e.retries
	// the policy's mechanisms (policy.go), the ones this path knows
	codel, skip, bounded := e.admitRule == admitCoDel, e.shedRule == shedAbandoned, e.admitRule == admitBound
	newMade := int64(-1) // when the next new person's arrival was drawn: before the run for the first
	// The rate of new arrivals where the next one is (rule 2): draws that
	// land before limit are scheduleArrival's, without its call.
	gap, boundary := e.arrivalGap(e.arrival)
	limit := min(boundary, end)
	window, windowEnd := int16(0), int64(windowNS) // the new people's window, and its end
	var x attempt                                  // the attempt arriving (below)
	// Asked again, not kept from the tree's start above: a few loads once a
	// run, where the value held from there moves the loop's registers.
	fast := e.newcomersTake()
	for {
		if fast && l.timedOut.n|l.refused.n == 0 { // the common attempts, until one that is not
			c := crowd{gap: gap, limit: limit, windowEnd: windowEnd, newMade: newMade, waiting: waiting, left: left, window: window}
			e.newcomers(&c, free)
			newMade, waiting, left, earliest = c.newMade, c.waiting, c.left, free[1]
		}
		// The next attempt to arrive, as the event loop orders them: by
		// time, then by when each was made (its seq), and made in the same
		// nanosecond, by rule 1's order (dueFirst, nextJittered).
		at, made, line := e.arrival, newMade, (*ring[retry])(nil)
		if l.timedOut.n|l.refused.n > 0 {
			at, made, line = dueFirst(&l.timedOut, e.retryDelay, at, made, line)
			at, made, line = dueFirst(&l.refused, e.retryDelay, at, made, line)
		}
		if varied {
			at, line = e.nextJittered(at, made)
		}
		if at >= end {
			break
		}
		// x, the attempt arriving at at. Every field the path reads is set
		// here or below: x is declared once, before the loop, since zeroing
		// its 48 bytes for every attempt is a call into the runtime under
		// WebAssembly (V8's memory.fill).
		if line == nil {
			for at >= windowEnd {
				window, windowEnd = window+1, windowEnd+windowNS
			}
			x.first, x.try, x.window = at, 1, window
			x.order = e.comesToOrder()
			newMade = at
			u, j, ok := e.arrivals.expLayer()
			if !ok {
				u = e.arrivals.expBeyond(j)
			}
			if d := float64(gap * u); d < float64(limit-at) {
				e.arrival = at + int64(d)
			} else { // the rate changes first, or is shaped (rule 25)
				gap, boundary = e.redraw(at, u, boundary)
				limit = min(boundary, end)
			}
			// redraw has moved the window of the sale's people on to hold
			// at, as it holds every new arrival until the next redraw
			// (wave).
			x.sale = uint64(at-l.waveFrom) < l.waveNS
		} else {
			r := &line.buf[line.head]
			x.first, x.try, x.order, x.sale, x.window = r.first, int32(r.try), r.order, r.sale, r.window
			line.head, line.n = (line.head+1)&(len(line.buf)-1), line.n-1 // popFront, with nothing to clear
			e.retriesSent++
		}
		x.t0, x.deadline = at, at+timeout
		w, sale := &e.windows[x.window], x.sale
		e.countArrival(w, sale, x.order, x.try)

		// The queue as x finds it: those that have not left by now. One
		// that leaves as x arrives has left: the worker that takes it
		// finished first (rankService).
		for left < len(waiting) && waiting[left] <= at {
			left++
		}
		if left == len(waiting) {
			waiting, left = waiting[:0], 0
		}
		switch {
		case bounded && len(waiting)-left >= e.bound:
			if tally != nil {
				tally.arrive(at, x.try == 1)
			}
			e.refuseAt(&x, at, newMade == at)
			continue
		case codel:
			// Fail at Scale's onNewRequest (rule 9), as the engine's arrive.
			if left == len(waiting) {
				e.lastEmpty = at
			}
			x.tight = at-e.lastEmpty > e.codelInterval
		}

		// Kiefer and Wolfowitz: x leaves the queue at p, when it has
		// arrived and a worker is free.
		// A worker that finishes as x arrives finished first, and is free
		// for it.
		top, k := int64(earliest>>workerBits)-1, int(earliest&workerMask) // the earliest-free worker, k, and when
		p := max(at, top)
		// x joins the queue if it must wait (p > at), written so as not
		// to branch on it: the branch is too hard to predict.
		if len(waiting) == cap(waiting) {
			waiting, left = roomInQueue(waiting, left, 1)
		}
		n := len(waiting)
		waiting = waiting[:n+1]
		waiting[n] = p
		if p <= at {
			n-- // it did not wait
		}
		waiting = waiting[:n+1]
		e.longestQueue = max(e.longestQueue, n+1-left)
		if tally != nil {
			tally.arrive(at, x.try == 1)
			tally.join(at, p, n+1-left)
		}
		deadline := at + timeout
		if p >= end { // still waiting when the run ends
			e.longestWait = max(e.longestWait, end-at)
			e.clientGaveUp(&x)
			if varied {
				continue
			}
			// So is every attempt from now on: the rest is waitOut's
			// (without jitter, whose retries are made above).
			e.waitOut(waiting[left:], newMade)
			break
		}
		e.longestWait = max(e.longestWait, p-at)
		switch {
		case skip && p >= deadline: // dropped (rule 7)
			e.clientGaveUp(&x)
			continue
		case codel && p-at > e.limit(&x): // over its limit (rule 9)
			if p >= deadline {
				e.clientGaveUp(&x) // dropped, nobody listening
			} else {
				e.refuseAt(&x, p, false) // as a worker finishes: before any arrival then
			}
			continue
		}
		// Served: its service time is the next drawn (rule 3).
		if sale {
			e.noteServed(p - at)
		}
		d := float64(0)
		if e.lines.plain { // serviceNS, unrolled
			u, j, ok := e.service.expLayer()
			if !ok {
				u = e.service.expBeyond(j)
			}
			d = float64(e.draw.mean * u)
		} else { // a service-time shape (rule 3a), then the slowdown (rule 23)
			d = e.slowed(p, e.serviceNS())
		}
		d = atMost(d+0.5, float64(end))
		done := p + int64(d)
		earliest = free.replace(k, min(done, end)) // done at or after the end is never free again
		if tally != nil {
			tally.serve(p, done, deadline)
		}
		switch {
		case done >= deadline: // finished, or not, after its client left
			e.wastedNS += min(done, end) - p
			if done < end {
				e.wasted++
			}
			if deadline < end && x.try > retries { // timed out, as clientGaveUp and count count it
				w.TimedOut++
				if sale {
					e.sale.TimedOut++
				}
			} else {
				e.clientGaveUp(&x)
			}
		case done < end: // answered, as count counts it
			e.usefulNS += done - p
			w.Answered++
			if sale {
				e.sale.Answered++
				if x.order {
					e.sale.OrdersAnswered++
				}
				e.waits.add(done - x.first)
			}
		default:
			e.usefulNS += end - p
			e.count(w, sale, x.order, unfinished, 0)
		}
	}
	if tally != nil {
		tally.finish(e.series, e.longestQueue, e.longestWait)
	}
	e.now = end
}

// arrivalGap is rateAt(t) for the arrival-order path, with a shaped sale's
// span (rule 25) an infinite gap, so that the loop's draw of the next new
// arrival, which lands beyond any limit there, hands it to thin, with no
// test of its own on the way.
func (e *engine) arrivalGap(t int64) (gap float64, boundary int64) {
	if gap, boundary = e.rateAt(t); gap < 0 {
		gap = math.Inf(1)
	}
	return gap, boundary
}

// redraw schedules the next new arrival after one at at, whose draw u,
// at its stretch's rate, did not land before the stretch's boundary: as
// the event loop's scheduleArrival draws it, again from the boundary, or
// thinned from at in a shaped sale (u its first exponential). It returns
// the new arrival's gap and boundary (arrivalGap).
func (e *engine) redraw(at int64, u float64, boundary int64) (float64, int64) {
	if gap, _ := e.rateAt(at); gap < 0 {
		e.thin(at, u)
	} else {
		e.scheduleArrival(boundary)
	}
	if e.waveEvery > 0 {
		e.wave(at, e.arrival)
	}
	return e.arrivalGap(e.arrival)
}

// startLines prepares the arrival-order path's run, once newEngine has
// drawn the first arrival: how service times are drawn, and the window of
// the sale's people among the new arrivals (arrivalLines.waveFrom).
func (e *engine) startLines() {
	e.lines.plain = e.draw.exponential && !e.incidents
	e.lines.waveFrom, e.lines.waveNS = e.peopleStart, e.peopleNS
	if e.waveEvery > 0 {
		e.wave(e.arrival, e.arrival)
	}
}

// wave sets the window of the sale's people among the new arrivals for a
// sale in waves (rule 25), once the arrival at at has drawn the next, at
// next: the span from the wave that holds at to the one that holds next,
// or the one of them in a wave, or none. Its test is then inSale's for
// both, and for every new arrival until the next redraw, which comes
// before the next thinned one: the arrivals between two redraws are in a
// stretch of constant rate, outside the sale, where the window holds
// none of them (it ends at the last wave's end, which arrivalOrderTakes
// holds to be the people's).
func (e *engine) wave(at, next int64) {
	from, ns := e.waveOf(at)
	if f, n := e.waveOf(next); n > 0 {
		if ns == 0 {
			from = f
		}
		ns = f + n - from
	}
	if ns == 0 { // none: a window of one nanosecond before the run
		from, ns = -1, 1
	}
	e.lines.waveFrom, e.lines.waveNS = from, uint64(ns)
}

// waveOf is the wave of the sale's people that holds t, from its start for
// ns, cut short at the people's end; ns is 0 if t is in none: inSale's
// test, for a sale in waves.
func (e *engine) waveOf(t int64) (from, ns int64) {
	if t < e.peopleStart || t >= e.peopleEnd {
		return 0, 0
	}
	from = e.peopleStart + (t-e.peopleStart)/e.waveEvery*e.waveEvery
	if end := min(from+e.waveLen, e.peopleEnd); t < end {
		return from, end - from
	}
	return 0, 0
}

// waitOut computes the rest of the run once every worker is busy until its
// end (the workers' tree's root at or after it), as the main loop would,
// with less to do: nothing arriving from then on is served, so each
// attempt is counted, joins the queue (or, the bounded queue full, is
// refused) and waits out the run, and its client gives up at its deadline:
// clientGaveUp's three ends, written out here, since in the post's retry
// storm two attempts in three are this loop's. waiting holds when the
// attempts waiting as it starts leave the queue (the run's end for those
// that never do), and newMade is when the next new person's arrival was
// drawn. Retries with jitter are made by nextJittered, in the main loop
// alone.
func (e *engine) waitOut(waiting []int64, newMade int64) {
	e.waitedOut = true
	l := &e.lines
	bounded := e.admitRule == admitBound // the only admission on this path that refuses (arrivalOrderTakes)
	stuck := 0                           // the attempts that joined the queue here, all waiting to the end
	for {
		at, made, line := e.arrival, newMade, (*ring[retry])(nil)
		at, made, line = dueFirst(&l.timedOut, e.retryDelay, at, made, line)
		at, _, line = dueFirst(&l.refused, e.retryDelay, at, made, line)
		if at >= e.end {
			return
		}
		// The attempt arriving at at: its person's first arrival and
		// window, its try, and whether the person came to order and is one
		// of the sale's.
		first, window, try, order, sale := at, int16(0), int16(1), false, false
		if line == nil {
			window = int16(at / windowNS)
			order = e.comesToOrder()
			newMade = at
			e.scheduleArrival(at) // as the event loop draws it: here, no faster way pays
			sale = e.saleAt(at)   // not the main loop's test, whose window redraw moves on
		} else {
			r := &line.buf[line.head]
			first, window, try, order, sale = r.first, r.window, r.try, r.order, r.sale
			line.head, line.n = (line.head+1)&(len(line.buf)-1), line.n-1 // popFront, with nothing to clear
			e.retriesSent++
		}
		w := &e.windows[window]
		e.countArrival(w, sale, order, int32(try))
		for len(waiting) > 0 && waiting[0] <= at { // one leaving as it arrives has left
			waiting = waiting[1:]
		}
		queue := len(waiting) + stuck // as it finds it
		if e.series != nil {
			l.series.arrive(at, try == 1)
		}
		deadline := at + e.timeout
		if bounded && queue >= e.bound {
			e.refuseAt(&attempt{first: first, t0: at, deadline: deadline, try: int32(try), window: window, order: order, sale: sale}, at, newMade == at)
			continue
		}
		if stuck == 0 { // the longest wait here is the first's
			e.longestWait = max(e.longestWait, e.end-at)
		}
		stuck++
		e.longestQueue = max(e.longestQueue, queue+1)
		if e.series != nil {
			l.series.join(at, e.end, queue+1)
		}
		// Its client gives up at its deadline (clientGaveUp), and its person
		// ends, as count counts them, or retries.
		switch {
		case deadline >= e.end: // not reached
			w.Unfinished++
			if sale {
				e.sale.Unfinished++
			}
		case int32(try) > e.retries || deadline+e.retryDelay >= e.end: // its last attempt, or a retry never sent (retryLater)
			e.retriesMade += b2i(int32(try) <= e.retries)
			w.TimedOut++
			if sale {
				e.sale.TimedOut++
			}
		default:
			e.retriesMade++
			r := &l.timedOut
			if r.n == len(r.buf) {
				r.grow()
			}
			// Set a field at a time: a composite literal is built aside and
			// copied in.
			p := &r.buf[(r.head+r.n)&(len(r.buf)-1)]
			p.due, p.made, p.first = deadline+e.retryDelay, deadline, first
			p.try, p.window, p.order, p.sale, p.refused = try+1, window, order, sale, false
			r.n++
		}
	}
}

// countArrival counts an attempt arriving, its person's try'th, in its
// window, w, and, if its person is one of the sale's (sale), in the sale's
// counts: an attempt, and a person, who came to order or not, if it is
// their first.
func (e *engine) countArrival(w *Window, sale, order bool, try int32) {
	w.Attempts++
	if sale {
		e.saleAttempts++
	}
	if try == 1 {
		w.People++
		if sale {
			e.sale.People++
			e.sale.Orders += b2i(order)
		}
	}
}

// dueFirst returns the earlier to arrive, as the event loop orders them
// (by time, then by when made), of the retry at the front of r, a line of
// retries sent delay after they are made, and the next attempt otherwise:
// due at at, made at made, from line (nil for a new person's). Called for
// the timed-out line, then the refused one. Made in the same nanosecond
// (rule 1): a timeout's retry was made first (timeouts come first), and a
// refusal's before the new person's arrival was drawn unless afterNew.
// One line a call, rather than a loop over both, so that it inlines.
func dueFirst(r *ring[retry], delay, at, made int64, line *ring[retry]) (int64, int64, *ring[retry]) {
	if r.n == 0 {
		return at, made, line
	}
	f := &r.buf[r.head]
	if rm := f.due - delay; f.due < at || (f.due == at && (rm < made || rm == made && line == nil && !f.afterNew)) {
		return f.due, rm, r
	}
	return at, made, line
}

// clientGaveUp is attempt x's client giving up at its deadline, unanswered
// (rule 4): a retry follows if x may have one, else its person timed out;
// a deadline at or after the run's end is not reached, so x is unfinished.
func (e *engine) clientGaveUp(x *attempt) {
	switch deadline := e.deadline(x); {
	case deadline >= e.end:
		e.settle(x, unfinished, 0)
	case e.final(x):
		e.settle(x, timedOut, 0)
	default:
		e.retryLater(&e.lines.timedOut, x, deadline, false, false)
	}
}

// refuseAt refuses attempt x at time t, free of cost: its client hears the
// no unless it has left (rule 13). afterNew says the next new person's
// arrival was drawn before it, in the same nanosecond.
func (e *engine) refuseAt(x *attempt, t int64, afterNew bool) {
	switch {
	case t >= e.deadline(x): // a timeout of 0 ns: gone before it is refused
		e.clientGaveUp(x)
	case e.final(x):
		e.settle(x, refused, 0)
	default:
		e.retryLater(&e.lines.refused, x, t, true, afterNew)
	}
}

// retryLater makes x's retry at time t, due RetryDelayMS later, on line;
// one due at or after the run's end is never sent, and its person ends as x
// did. With jitter, the retry waits to be made (nextJittered). afterNew
// says it is made after the next new person's arrival was drawn, in the
// same nanosecond.
func (e *engine) retryLater(line *ring[retry], x *attempt, t int64, wasRefused, afterNew bool) {
	r := retry{due: t + e.retryDelay, made: t, first: x.first, try: int16(x.try + 1), window: x.window, order: x.order, sale: x.sale,
		refused: wasRefused, afterNew: afterNew}
	if e.retriesVary() {
		if wasRefused {
			e.lines.toMakeRefused.pushBack(r)
		} else {
			e.lines.toMakeTimedOut.pushBack(r)
		}
		return
	}
	e.retriesMade++
	if r.due >= e.end {
		e.neverSent(r)
		return
	}
	// line.pushBack(r), written out: generic, it is too big to inline,
	// and the retry storm makes a retry for two attempts in three.
	if line.n == len(line.buf) {
		line.grow()
	}
	line.buf[(line.head+line.n)&(len(line.buf)-1)] = r
	line.n++
}

// neverSent settles the person of r, a retry due at or after the run's
// end, as their last attempt ended (rule 14).
func (e *engine) neverSent(r retry) {
	a := attempt{first: r.first, order: r.order, window: r.window}
	if r.refused {
		e.settle(&a, refused, 0)
	} else {
		e.settle(&a, timedOut, 0)
	}
}

// nextJittered makes, in the order made, the retries waiting to be made
// before the next new arrival, at (drawn at made), drawing each one's
// jitter as the event loop does (rule 13), and returns the next arrival:
// the new one (line nil) or the earliest jittered retry's, moved to
// e.lines.next (line). In the same nanosecond (rule 1), a timeout's retry
// is made before a refusal's, each is made before the arrival that comes
// then (an earlier event made it), and a retry made as the new person's
// arrival was drawn arrives first unless it was made after (afterNew).
func (e *engine) nextJittered(arrival, arrivalMade int64) (at int64, line *ring[retry]) {
	l := &e.lines
	for {
		at, line = arrival, nil
		if len(l.jittered) > 0 {
			if r := &l.jittered[0]; r.due < at || (r.due == at && (r.made < arrivalMade || r.made == arrivalMade && !r.afterNew)) {
				at, line = r.due, &l.next
			}
		}
		// The retry to make first, if it is made before the next arrival:
		// the timed-out line's at a tie, as it is looked at first.
		var first *ring[retry]
		when := int64(math.MaxInt64)
		for _, r := range [2]*ring[retry]{&l.toMakeTimedOut, &l.toMakeRefused} {
			if r.n > 0 {
				if t := r.buf[r.head].made; t < when {
					when, first = t, r
				}
			}
		}
		if first == nil || when > at {
			break
		}
		r := first.popFront()
		e.retriesMade++
		r.n = l.made
		l.made++
		r.due = r.made + e.variedDelay(r.try-1, r.refused)
		if r.due >= e.end {
			e.neverSent(r)
			continue
		}
		l.jittered.push(r)
	}
	if line != nil {
		l.next.pushBack(l.jittered.pop())
	}
	return at, line
}

// retriesVary reports whether retries' delays vary, so that they are made
// in the event loop's order and come due from a heap: with jitter, for the
// backoff client, and for Retry-After's refusals (the bounded queue's).
func (e *engine) retriesVary() bool {
	return e.retryJitter > 0 || e.cfg.Client == Backoff || (e.cfg.Client == RetryAfter && e.admitRule == admitBound)
}

// variedDelay draws the delay of a retry made as its person's try'th
// attempt ends, refused or timed out, as the event loop's retryOrSettle
// draws it: for the backoff client a uniform draw under min(BackoffCapMS,
// BackoffBaseMS x 2^(try-1)) from the client's stream; otherwise
// RetryDelayMS with a uniform jitter under RetryJitterMS, if any, from the
// jitter's (rule 13), which for Retry-After's refusals the hint then
// replaces, with a second of jitter from the client's stream: the hint is
// the bounded queue's, full.
func (e *engine) variedDelay(try int16, refused bool) int64 {
	if e.cfg.Client == Backoff {
		return int64(float64(backoffCeiling(e.backoffBase, e.backoffCap, int32(try)) * e.clientRand.Float64()))
	}
	delay := e.retryDelay
	if e.retryJitter > 0 {
		delay += int64(float64(float64(e.retryJitter) * e.jitter.Float64()))
	}
	if refused && e.cfg.Client == RetryAfter {
		delay = e.retryAfterFor(e.bound) + int64(float64(1e9*e.clientRand.Float64()))
	}
	return delay
}

// retryHeap is a binary min-heap of retries by when they are due, then
// the order they were made (retry.n).
type retryHeap []retry

func (r retry) before(o retry) bool { return r.due < o.due || (r.due == o.due && r.n < o.n) }

func (h *retryHeap) push(r retry) {
	*h = append(*h, r)
	s := *h
	i := len(s) - 1
	for i > 0 {
		p := (i - 1) / 2
		if !r.before(s[p]) {
			break
		}
		s[i] = s[p]
		i = p
	}
	s[i] = r
}

// pop removes and returns the earliest retry.
func (h *retryHeap) pop() retry {
	s := *h
	top, last := s[0], s[len(s)-1]
	s = s[:len(s)-1]
	*h = s
	if len(s) == 0 {
		return top
	}
	i := 0
	for {
		c := 2*i + 1
		if c >= len(s) {
			break
		}
		if c+1 < len(s) && s[c+1].before(s[c]) {
			c++
		}
		if !s[c].before(last) {
			break
		}
		s[i] = s[c]
		i = c
	}
	s[i] = last
	return top
}

// freeTree holds when each worker is next free, and finds the earliest:
// a tournament tree, whose leaves are the workers and each of whose inner
// nodes holds the earlier of its two children, so that the root is the
// earliest. Replacing the earliest worker's time walks its leaf's path to
// the root, a comparison and a conditional move at each level, with no
// branch to mispredict (a binary heap's children compare unpredictably, and
// a scan of the workers costs a comparison for every one of them).
//
// A node holds a worker and its time in one key, (time+1) << 17 | worker,
// so that one comparison orders the times and carries the worker along:
// times are at most the run's end (a day, under 2^47 ns) and -1 for free
// from the start, workers fewer than 2^17 (MaxWorkers).
type freeTree []uint64

const (
	workerBits = 17
	workerMask = 1<<workerBits - 1
)

// The keys' room, checked when compiled: a constant that does not fit a
// uint is an error.
const (
	_ = uint(1<<workerBits - maxWorkers)               // every worker has a number
	_ = uint(1<<(64-workerBits) - 1 - maxDuration*1e9) // and every time up to a day's end, plus one
)

// writtenOut is the fewest leaves of a tree newcomers walks, so that up to
// that many workers (the post's eight) take its walk to the root written
// out.
const writtenOut = 8

// start makes every one of workers free from the start, in a tree of at
// least least leaves (a power of two), reusing t's memory.
func (t freeTree) start(workers, least int) freeTree {
	m := least
	for m < workers {
		m *= 2
	}
	t = resize(t, 2*m)
	for i := range m { // the leaves; workers that do not exist are never free
		t[m+i] = math.MaxUint64
		if i < workers {
			t[m+i] = uint64(i)
		}
	}
	for i := m - 1; i > 0; i-- {
		t[i] = min(t[2*i], t[2*i+1])
	}
	return t
}

// replace sets when worker, the earliest, is next free to at, and returns
// the root, the earliest now.
func (t freeTree) replace(worker int, at int64) (root uint64) {
	v := uint64(at+1)<<workerBits | uint64(worker)
	mask := len(t) - 1 // a power of two less one: no bounds to check
	for i := len(t)/2 + worker; ; i >>= 1 {
		t[i&mask] = v
		if i == 1 {
			return v
		}
		v = earlier(v, t[(i^1)&mask])
	}
}

// roomInQueue makes room for n more in waiting, the queue's leaving
// times, whose first left have left: it moves the rest to the front if a
// quarter or more have left, and otherwise grows it by half. So a queue
// that grows all run is copied about three times over, not the five of
// append's growth by a quarter, and holds at most 16 bytes for each that
// waits as it grows: 1.5 places for each of at least three quarters.
func roomInQueue(waiting []int64, left, n int) ([]int64, int) {
	if len(waiting)+n <= cap(waiting) {
		return waiting, left
	}
	if left > 0 && left >= len(waiting)/4 {
		return waiting[:copy(waiting, waiting[left:])], 0
	}
	return slices.Grow(waiting, max(n, len(waiting)/2)), left
}

// b2i is 1 for true and 0 for false; the compiler makes it a flag, not a
// branch.
func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// arrivalOrderPolicies are the policies whose runs the arrival-order path
// computes (policySpec.arrivalOrder), in the order of Policies: the tests
// of the two paths draw from these.
func arrivalOrderPolicies() []Policy {
	var out []Policy
	for _, p := range Policies {
		if p.spec().arrivalOrder {
			out = append(out, p)
		}
	}
	return out
}
