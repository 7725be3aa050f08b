package sim

import "iter"

// The pickup path: the same model as the event loop (engine.go) for lifo
// and priority, the policies that take requests out of arrival order,
// computed without an attempt record or an event list.
//
// What becomes of an attempt is known the moment a worker picks it up:
// the worker's service time is drawn then (rule 3), so its end, and
// whether that comes before its client's deadline and the run's end, are
// known too, as is a refusal then. Nothing that happens later changes it:
// the counts are sums, the same in any order. So a waiting request is its
// arrival time and whether it is an order, one of the sale's people and
// given the short limit, in 8 bytes, with under lifo 8 more for its
// person's first arrival or its place in the timeout line
// (waitingRequest); a busy worker is the time it is next free; and the
// events are the clients' timeouts, the workers coming free while
// requests wait, and the arrivals (new people and retries), in rule 1's
// order. A timeout matters only for an attempt a retry may follow: each
// waits in a line by deadline from its arrival to its timeout, which a
// pickup that answers or refuses it in time marks. The path keeps the event loop's order of
// everything it draws and of the retries it makes, so it gives the event
// loop's Result to the bit (TestPickupMatchesEventLoop and FuzzPickup hold
// them equal).
//
// It takes exactly the Configs pickupTakes accepts; the event loop takes
// the rest.

// pickupTakes reports whether the pickup path computes c's Result exactly.
// Like arrivalOrderTakes it is an allow-list: it sets the fields the path
// handles (or that c's policy and client never read) to their defaults and
// accepts c only if what remains is DefaultConfig, so that a field added
// to Config later is declined until this function learns it.
func pickupTakes(c Config) bool {
	if c.Policy != LIFO && c.Policy != Priority {
		return false
	}
	// A timeout of 0 ns: the client has gone as its request arrives, and
	// hears no refusal, which the path would count as heard.
	if ms(c.TimeoutMS) == 0 {
		return false
	}
	// Retries due in the order made (the fixed client's, without jitter),
	// under lifo. Priority keeps a waiting request's key alone, with no
	// room for its person's first arrival or its timeout's place, and its
	// keys count the arrivals in a nanosecond, which retries made together
	// could outnumber.
	if c.Retries > 0 && (c.Client != Fixed || ms(c.RetryJitterMS) != 0 || c.Policy != LIFO) {
		return false
	}
	// The rest as the arrival-order path: without retries, backoff and
	// Retry-After are the fixed client, and the clients that count answers
	// or send themselves are declined.
	return withoutTakenFields(c) == DefaultConfig()
}

// waitingRequest is a request in the queue. Its key is its arrival time,
// ns, in the top 47 bits (a day is under 2^47 ns), then, under priority,
// how many arrived before it in the same nanosecond, so that two keys
// compare as their arrivals were ordered, then three flags. Its ref is,
// for an attempt a retry may follow, refHasTimeout and its place in the
// timeout line; for a last attempt, its person's first arrival, ns.
// Priority keeps the key alone (priorityWaiter).
type waitingRequest struct{ key, ref uint64 }

const (
	keyTight    = 1 << iota // lifo gave it the short limit, CoDelTargetMS (rule 9)
	keyOrder                // an order rather than a price preview
	keySale                 // its person is one of the sale's (inSale)
	keyTieShift = 3
	keyTShift   = 17
	keyMostTies = 1<<(keyTShift-keyTieShift) - 1

	refHasTimeout = 1 << 63
)

// awaitingTimeout is an attempt a retry may follow, in the timeout line
// from its arrival until its deadline, heard back or not: its arrival and
// its person's first arrival (ns), its try, and whether it has heard back
// (rule 4). 24 bytes, in a ring that doubles.
type awaitingTimeout struct {
	t0, first   int64
	try         int32
	order, sale bool
	replied     bool
}

// pendingRetry is a retry made and not yet arrived: when it arrives (ns)
// and its seq among arrivals (rule 1), its person's first arrival (ns),
// its try, and whether the attempt before it was refused (rather than
// timed out). 32 bytes, in a ring that doubles.
type pendingRetry struct {
	due         int64
	seq         uint64
	first       int64
	try         int32
	order, sale bool
	refused     bool
}

// pickupLines is the pickup path's memory, kept from run to run by Runs.
type pickupLines struct {
	// the waiting requests, n of them: lifo's one line; priority's
	// previews and orders (rule 11), without retries, so each its
	// waitingRequest's key alone (priorityWaiter)
	line             blockLine[waitingRequest]
	previews, orders blockLine[uint64]
	n                int
	busy             freeTree // when each worker is next free, or was (arrivalorder.go)
	lastArrival      int64    // under priority, the last arrival's time, ns, and how many arrived before it then
	sameNS           uint64
	timeouts         ring[awaitingTimeout] // by deadline: the timeout is the same for all
	timeoutsFrom     uint64                // the place of the timeout line's front; places count up from 0
	retries          ring[pendingRetry]    // in the order made, and so of due time: the delay is the same for all
	services         []pickupService       // each worker's latest service, by worker, for a series
	// the window of the latest new person, and when it ends, ns
	window    int
	windowEnd int64
}

// pickupService is a worker's latest service: when it ends, ns, and
// whether its client had gone by then.
type pickupService struct {
	done int64
	late bool
}

// runPickup runs e's Config, which pickupTakes accepts, measuring into e
// as the event loop would.
func (e *engine) runPickup() {
	p := &e.pick
	p.line.reset()
	p.previews.reset()
	p.orders.reset()
	p.n = 0
	p.lastArrival, p.sameNS = -1, 0
	p.timeouts = ring[awaitingTimeout]{buf: p.timeouts.buf}
	p.retries = ring[pendingRetry]{buf: p.retries.buf}
	p.timeoutsFrom, p.window, p.windowEnd = 0, 0, 0
	p.busy = p.busy.start(e.cfg.Workers, 1) // each worker's key is when it is next free: free from the start
	if e.series != nil {
		p.services = resize(p.services, e.cfg.Workers)
	}
	e.picking = true
	end := e.end
	root := p.busy[1]
	for {
		// The next event, in rule 1's order: a client's timeout, if one
		// a retry may follow has not heard back (awaitingTimeout); while
		// requests wait, a worker coming free to take the next (while
		// none waits it does nothing but stay free, which the next arrival
		// finds); the next arrival, a new person's or a retry's, by seq
		// in the same nanosecond. At e.stop, the run's end or the series'
		// next step, the loop stops, or closes the steps before the event.
		at, retry := e.arrival, false
		if p.retries.n > 0 {
			if r := p.retries.place(0); r.due < at || (r.due == at && r.seq < e.arrSeq) {
				at, retry = r.due, true
			}
		}
		if p.timeouts.n > 0 {
			if timedOut, stopped := e.pickupTimeoutDue(at, root); stopped {
				break
			} else if timedOut {
				continue
			}
		}
		if p.n > 0 {
			if free := int64(root>>workerBits) - 1; free <= at {
				if free >= e.stop {
					if free >= end {
						break
					}
					e.closeSteps(free)
				}
				e.now = free
				w := int(root & workerMask)
				if done, ok := e.pickUp(w); ok {
					root = p.busy.replace(w, min(done, end)) // free at the end or after: never, in the run
				} // else it is free from now, as its key says
				continue
			}
		}
		if at >= e.stop {
			if at >= end {
				break
			}
			e.closeSteps(at)
		}
		e.now = at
		var done int64
		var served bool
		if retry {
			r := p.retries.popFront()
			e.retriesSent++
			done, served = e.pickupArrive(root, &e.windows[windowOf(r.first)], r.first, r.try, r.order, r.sale)
		} else { // a new person (newPerson)
			order := e.comesToOrder()
			if at >= p.windowEnd { // new people's windows move forward only
				p.window = windowOf(at)
				p.windowEnd = int64(p.window+1) * windowNS
			}
			w := &e.windows[p.window]
			w.People++
			sale := e.saleAt(at)
			if sale {
				e.sale.People++
				if order {
					e.sale.Orders++
				}
			}
			e.scheduleArrival(at)
			done, served = e.pickupArrive(root, w, at, 1, order, sale)
		}
		if served {
			root = p.busy.replace(int(root&workerMask), min(done, end))
		}
	}
	e.pickupEnd()
}

// pickupTimeoutDue handles the timeout line's front if it comes next, before
// the next arrival, at, and the worker coming free first (root) if
// requests wait (rule 1): a client that has not heard back tries again
// (rule 13). Fronts that have heard back go first. It says whether it
// handled one, and whether the loop stops there instead.
func (e *engine) pickupTimeoutDue(at int64, root uint64) (timedOut, stopped bool) {
	p := &e.pick
	// most have heard back: they go in a run, as dropCancelledTimeouts
	// lets them go, without a copy of each
	heard := 0
	for heard < p.timeouts.n && p.timeouts.place(heard).replied {
		heard++
	}
	p.timeouts.dropFront(heard)
	p.timeoutsFrom += uint64(heard)
	if p.timeouts.n == 0 {
		return false, false
	}
	d := p.timeouts.place(0).t0 + e.timeout
	if d > at || (p.n > 0 && d > int64(root>>workerBits)-1) {
		return false, false
	}
	if d >= e.stop {
		if d >= e.end {
			return false, true
		}
		e.closeSteps(d)
	}
	e.now = d
	t := p.timeouts.popFront()
	p.timeoutsFrom++
	e.pickupTryAgain(t.first, t.try, t.order, t.sale, false)
	return true, false
}

// pickupArrive is an attempt of try try, of a person who first arrived at
// first, in window w, arriving now (arrive). root is the root of the
// workers' tree, the earliest free worker's key: if that worker is free
// now, it takes the attempt at once, and pickupArrive returns when it is
// next free.
func (e *engine) pickupArrive(root uint64, w *Window, first int64, try int32, order, sale bool) (done int64, served bool) {
	p := &e.pick
	now := e.now
	w.Attempts++
	if sale {
		e.saleAttempts++
	}
	if e.admitRule == admitPriority { // it compares the two lines' fronts (rule 11)
		if now == p.lastArrival {
			p.sameNS++
			if p.sameNS > keyMostTies { // new people alone arrive (pickupTakes), at most a million a second
				panic("sim: more than 16,383 people arrived in one nanosecond")
			}
		} else {
			p.lastArrival, p.sameNS = now, 0
		}
	}
	k := waitingRequest{key: uint64(now)<<keyTShift | p.sameNS<<keyTieShift, ref: uint64(first)}
	if order {
		k.key |= keyOrder
	}
	if sale {
		k.key |= keySale
	}
	final := try > e.retries
	waiting := p.n
	switch e.admitRule {
	case admitPriority:
		if waiting >= e.bound {
			if !order || p.previews.n() == 0 { // it hears no at once (rule 11)
				if final {
					e.count(w, sale, order, refused, 0)
				} else {
					e.pickupTryAgain(first, try, order, sale, true)
				}
				return 0, false
			}
			// the newest preview makes room (rule 11)
			room := priorityWaiter(p.previews.popBack())
			p.n--
			e.noteWaited(room)
			e.pickupSayNo(room)
		}
	case admitCoDel: // Fail at Scale's onNewRequest (rule 9)
		if waiting == 0 {
			e.lastEmpty = now
		}
		if now-e.lastEmpty > e.codelInterval {
			k.key |= keyTight
		}
	}
	if !final { // its timeout, should it not hear back first (rule 13)
		k.ref = refHasTimeout | (p.timeoutsFrom + uint64(p.timeouts.n))
		*p.timeouts.newBack() = awaitingTimeout{t0: now, first: first, try: try, order: order, sale: sale}
	}
	if int64(root>>workerBits)-1 <= now { // a worker free, and so nothing waiting: served at once
		return e.pickupServe(k, int(root&workerMask)), true
	}
	switch {
	case e.admitRule != admitPriority:
		p.line.pushBack(k)
	case order:
		p.orders.pushBack(k.key)
	default:
		p.previews.pushBack(k.key)
	}
	p.n++
	if p.n > e.longestQueue {
		e.longestQueue = p.n
	}
	return 0, false
}

// pickUp is worker w coming free now taking the next request it serves,
// as startWork does: lifo's newest while the queue has not been empty for
// CoDelInterval, else the oldest (rule 10), refusing or dropping those
// over their limit (rule 9); priority's oldest of its two lines (rule 11).
// It returns when the worker is next free, or false if nothing waits.
func (e *engine) pickUp(w int) (done int64, ok bool) {
	p := &e.pick
	for {
		var k waitingRequest
		switch {
		case p.n == 0:
			return 0, false
		case e.admitRule == admitPriority:
			if p.orders.n() == 0 || (p.previews.n() > 0 && p.previews.front() < p.orders.front()) {
				k = priorityWaiter(p.previews.popFront())
			} else {
				k = priorityWaiter(p.orders.popFront())
			}
		case e.now-e.lastEmpty > e.codelInterval:
			k = p.line.popBack()
		default:
			k = p.line.popFront()
		}
		p.n--
		e.noteWaited(k)
		if e.pickup {
			limit := e.codelInterval
			if k.key&keyTight != 0 {
				limit = e.codelTarget
			}
			if e.now-pickupT(k) > limit { // over its limit: refused, or dropped if its client has gone
				e.pickupSayNo(k)
				continue
			}
		}
		return e.pickupServe(k, w), true
	}
}

// pickupSayNo refuses k now (sayNo): its client hears it unless it has
// gone, and tries again if it may (rule 13).
func (e *engine) pickupSayNo(k waitingRequest) {
	sale, order := k.key&keySale != 0, k.key&keyOrder != 0
	gone := e.now >= pickupT(k)+e.timeout
	switch {
	case k.ref&refHasTimeout != 0:
		// If its client has gone, its timeout came at its deadline and
		// made its retry; if not, it hears no and tries again now.
		if !gone {
			t := e.timeoutOf(k)
			t.replied = true
			e.pickupTryAgain(t.first, t.try, order, sale, true)
		}
	case gone: // its last: it timed out (rule 4)
		e.count(&e.windows[windowOf(k.first())], sale, order, timedOut, 0)
	default:
		e.count(&e.windows[windowOf(k.first())], sale, order, refused, 0)
	}
}

// pendingRetry is the client of an attempt of try try, of a person who first
// arrived at first, trying again after its refusal or timeout (rule 13):
// the fixed client's retry, due after RetryDelayMS.
func (e *engine) pickupTryAgain(first int64, try int32, order, sale, refused bool) {
	e.retriesMade++
	e.pick.retries.pushBack(pendingRetry{due: e.now + e.retryDelay, seq: nextSeq(&e.arrivalSeq), first: first, try: try + 1, order: order, sale: sale, refused: refused})
}

// pickupServe is worker w starting on k now, as serve does, and what
// becomes of it, as endService and result would say: answered, served to
// nobody, or still in service when the run ends. It returns when the
// worker is next free.
func (e *engine) pickupServe(k waitingRequest, w int) int64 {
	now, t0 := e.now, pickupT(k)
	sale := k.key&keySale != 0
	if sale {
		e.noteServed(now - t0)
	}
	d := e.serviceNS()
	if e.incidents {
		d = e.slowed(now, d)
	}
	d += 0.5
	if d > e.endF {
		d = e.endF
	}
	done := now + int64(d)
	deadline := t0 + e.timeout
	late := done >= deadline
	if late {
		e.wastedNS += min(done, e.end) - now
	} else {
		e.usefulNS += min(done, e.end) - now
	}
	if e.series != nil {
		e.pick.services[w] = pickupService{done, late}
	}
	order := k.key&keyOrder != 0
	if k.ref&refHasTimeout != 0 { // its timeout, or its answer, settles it
		switch {
		case done >= e.end: // in service when the run ends: its timeout says how it ends
		case late:
			e.wasted++ // served to nobody (rule 4)
		default:
			t := e.timeoutOf(k)
			t.replied = true
			e.count(&e.windows[windowOf(t.first)], sale, order, answered, done-t.first)
		}
		return done
	}
	first := k.first()
	win := &e.windows[windowOf(first)]
	switch {
	case done >= e.end: // in service when the run ends
		e.count(win, sale, order, e.caught(deadline, timedOut), 0)
	case late: // served to nobody (rule 4)
		e.wasted++
		e.count(win, sale, order, timedOut, 0)
	default:
		e.count(win, sale, order, answered, done-first)
	}
	return done
}

// first is a last attempt's person's first arrival, ns.
func (k waitingRequest) first() int64 { return int64(k.ref) }

// timeoutOf is k's place in the timeout line, for a k a retry may
// follow whose deadline has not come: its timeout is still there.
func (e *engine) timeoutOf(k waitingRequest) *awaitingTimeout {
	p := &e.pick
	i := k.ref&^refHasTimeout - p.timeoutsFrom
	if i >= uint64(p.timeouts.n) {
		panic("sim: a waiting request's timeout has left the line before its deadline")
	}
	return p.timeouts.place(int(i))
}

// pickupEnd settles the people the run's end catches, as result does:
// those whose timeout is still to come and who have not heard back, the
// last attempts still waiting, and the retries not yet arrived. result
// notes the oldest one's wait (oldestWaiting).
func (e *engine) pickupEnd() {
	p := &e.pick
	e.now = e.end
	for k := 0; k < p.timeouts.n; k++ {
		if t := p.timeouts.at(k); !t.replied {
			e.count(&e.windows[windowOf(t.first)], t.sale, t.order, unfinished, 0)
		}
	}
	for k := range p.waiting() {
		if k.ref&refHasTimeout != 0 { // its timeout's place says how it ends
			continue
		}
		e.count(&e.windows[windowOf(k.first())], k.key&keySale != 0, k.key&keyOrder != 0, e.caught(pickupT(k)+e.timeout, timedOut), 0)
	}
	for k := 0; k < p.retries.n; k++ {
		r := p.retries.at(k)
		o := timedOut
		if r.refused {
			o = refused
		}
		e.count(&e.windows[windowOf(r.first)], r.sale, r.order, o, 0)
	}
}

// waiting yields the waiting requests: lifo's line, or priority's two.
func (p *pickupLines) waiting() iter.Seq[waitingRequest] {
	return func(yield func(waitingRequest) bool) {
		for k := range p.line.all() {
			if !yield(k) {
				return
			}
		}
		for _, l := range []*blockLine[uint64]{&p.previews, &p.orders} {
			for k := range l.all() {
				if !yield(priorityWaiter(k)) {
					return
				}
			}
		}
	}
}

// oldest is when the request that has waited longest arrived, ns, and
// false if none waits.
func (p *pickupLines) oldest() (t0 int64, ok bool) {
	switch {
	case p.line.n() > 0:
		return pickupT(p.line.front()), true
	case p.previews.n() > 0 && (p.orders.n() == 0 || p.previews.front() < p.orders.front()):
		return pickupT(priorityWaiter(p.previews.front())), true
	case p.orders.n() > 0:
		return pickupT(priorityWaiter(p.orders.front())), true
	}
	return 0, false
}

// inService is, for a series' boundary at b, the services started before
// b and not ended by it: their worker time after b, ns, that the engine
// has booked as useful and as wasted, and how many of them the path has
// counted answered and served to nobody, which the event loop counts only
// when they end.
func (p *pickupLines) inService(b, end int64) (useful, wasted int64, answered, nobody int) {
	for _, s := range p.services {
		if s.done < b { // idle since, or never busy
			continue
		}
		left := min(s.done, end) - b
		switch {
		case s.late:
			wasted += left
			if s.done < end {
				nobody++
			}
		default:
			useful += left
			if s.done < end {
				answered++
			}
		}
	}
	return useful, wasted, answered, nobody
}

// priorityWaiter is the waitingRequest whose key is k, under priority, whose
// waiting requests are each their person's only attempt (pickupTakes).
func priorityWaiter(k uint64) waitingRequest { return waitingRequest{key: k, ref: k >> keyTShift} }

// pickupT is a waiting request's arrival time, ns.
func pickupT(k waitingRequest) int64 { return int64(k.key >> keyTShift) }

// noteWaited is noteQueueWait for a waiting request k.
func (e *engine) noteWaited(k waitingRequest) {
	if w := e.now - pickupT(k); w > e.longestWait {
		e.longestWait = w
	}
}

// windowOf is the window of a time t, ns, at least 0.
func windowOf(t int64) int { return int(uint64(t) / windowNS) }
