package sim

// The pickup path: the same model as the event loop (engine.go) for lifo
// and priority, the policies that take requests out of arrival order,
// computed without an attempt record or an event list where every
// attempt is its person's only one.
//
// Without retries, what becomes of an attempt is known the moment a worker
// picks it up: the worker's service time is drawn then (rule 3), so its
// end, and whether that comes before its client's deadline and the run's
// end, are known too. Nothing that happens later changes it: the counts
// are sums, the same in any order. So a waiting request is 8 bytes (its
// arrival time, and whether it is an order, one of the sale's people and
// given the short limit), a busy worker is the time it is next free, and
// the events are the new arrivals and the workers coming free, whichever
// is earlier, a worker first in the same nanosecond (rule 1). The path
// keeps the event loop's order of everything it draws, so it gives the
// event loop's Result to the bit (TestPickupMatchesEventLoop and
// FuzzPickup hold them equal).
//
// It takes exactly the Configs pickupTakes accepts; the event loop takes
// the rest.

// pickupTakes reports whether the pickup path computes c's Result exactly.
// Like arrivalOrderTakes it is an allow-list: it sets the fields the path
// handles (or that c's policy and client never read) to their defaults and
// accepts c only if what remains is DefaultConfig, so that a field added
// to Config later is declined until this function learns it.
func pickupTakes(c Config) bool {
	d := DefaultConfig()
	lifo := pickupMechanisms{admitCoDel, takeNewestCrowded, shedOverLimit}
	priority := pickupMechanisms{admitPriority, takeOldestOfTwo, shedNothing}
	if sp := c.Policy.spec(); sp.limiter != nil || (pickupMechanisms{sp.admit, sp.take, sp.shed} != lifo && pickupMechanisms{sp.admit, sp.take, sp.shed} != priority) {
		return false
	}
	if c.Retries != 0 || ms(c.TimeoutMS) == 0 { // a retry's fate waits for its timeout; a timeout in its own arrival's nanosecond is rule 1's edge
		return false
	}
	// The policy's own settings: the bound for priority, CoDel's M and N
	// for lifo, each unread by the other.
	c.Policy, c.Queue, c.CoDelTargetMS, c.CoDelIntervalMS = d.Policy, d.Queue, d.CoDelTargetMS, d.CoDelIntervalMS
	c.Workers, c.ServiceMS, c.OrderShare, c.Seed = d.Workers, d.ServiceMS, d.OrderShare, d.Seed
	c.NormalRPS, c.SaleRPS, c.SaleStartS, c.SaleS, c.DurationS = d.NormalRPS, d.SaleRPS, d.SaleStartS, d.SaleS, d.DurationS
	c.TimeoutMS = d.TimeoutMS
	c.SeriesStepS = d.SeriesStepS // the series, closed at its steps as the event loop closes them
	// No retries: their delays and the clients that tell them apart are
	// unread, but for the clients that count answers or send themselves.
	c.Retries, c.RetryDelayMS, c.RetryJitterMS = d.Retries, d.RetryDelayMS, d.RetryJitterMS
	switch c.Client {
	case Fixed, Backoff, RetryAfter:
		c.Client, c.BackoffBaseMS, c.BackoffCapMS = d.Client, d.BackoffBaseMS, d.BackoffCapMS
		c.BudgetTokens, c.BudgetRefusalCost, c.BudgetTimeoutCost, c.BudgetRefill = d.BudgetTokens, d.BudgetRefusalCost, d.BudgetTimeoutCost, d.BudgetRefill
		c.RatioMax, c.ThrottleK, c.ClientWindowS = d.RatioMax, d.ThrottleK, d.ClientWindowS
	}
	// The sale's shape (rule 25) and a rate table (rule 2b): new arrivals
	// are scheduleArrival's, as the event loop draws them.
	c.SaleRampS, c.SaleWaves, c.SaleEveryS = d.SaleRampS, d.SaleWaves, d.SaleEveryS
	c.Arrivals, c.ArrivalsScale, c.ArrivalsShiftS, c.SaleThresholdRPS = d.Arrivals, d.ArrivalsScale, d.ArrivalsShiftS, d.SaleThresholdRPS
	// The service's shape (rule 3a), and a slowdown (rule 23), which
	// stretches a service by when it starts.
	c.Service, c.ServiceP99MS, c.ServiceHistogram = d.Service, d.ServiceP99MS, d.ServiceHistogram
	c.SlowFactor, c.SlowStartS, c.SlowS = d.SlowFactor, d.SlowStartS, d.SlowS
	// What is left must be the defaults: free refusals, no loss,
	// patience, heap or hops, and every field not named above.
	return c == d
}

// pickupMechanisms are a policy's mechanisms (policy.go): the path knows
// lifo's and priority's.
type pickupMechanisms struct {
	admit admission
	take  taking
	shed  shedding
}

// A waiting request, in a uint64: its arrival time, ns, in the top 47 bits
// (a day is under 2^47 ns), then how many arrived before it in the same
// nanosecond, so that two keys compare as their arrivals were ordered,
// then three flags.
const (
	pickupTight    = 1 << iota // lifo gave it the short limit, CoDelTargetMS (rule 9)
	pickupOrder                // an order rather than a price preview
	pickupSale                 // its person is one of the sale's (inSale)
	pickupTieShift = 3
	pickupTShift   = 17
	pickupMostTies = 1<<(pickupTShift-pickupTieShift) - 1
)

// pickupLines is the pickup path's memory, kept from run to run by Runs.
type pickupLines struct {
	// the waiting requests: lifo's one line; priority's previews and
	// orders (rule 11)
	previews, orders blockLine
	busy             freeTree // when each worker is next free, or was (arrivalorder.go)
	tie              int64    // the last arrival's time, ns, and how many arrived before it then
	ties             uint64
	svc              []pickupService // each worker's latest service, for a series
}

// pickupService is a worker's latest service: when it ends, ns, and
// whether its client had gone by then.
type pickupService struct {
	done int64
	late bool
}

// pickupOrder runs e's Config, which pickupTakes accepts, measuring into e
// as the event loop would.
func (e *engine) pickupOrder() {
	p := &e.pick
	p.previews.reset()
	p.orders.reset()
	p.tie, p.ties = -1, 0
	p.busy = p.busy.start(e.cfg.Workers, 1) // each worker's key is when it is next free: free from the start
	if e.series != nil {
		p.svc = resize(p.svc, e.cfg.Workers)
	}
	e.picking = true
	end := e.end
	root := p.busy[1]
	for {
		// While requests wait, a worker coming free takes the next: the
		// earlier of that and the next arrival is the next event, the
		// worker first in the same nanosecond (rule 1). While none waits,
		// a worker coming free does nothing but stay free, and the next
		// event is the next arrival. At e.stop, the run's end or the
		// series' next step, the loop stops, or closes the steps before
		// the event.
		if p.previews.n()+p.orders.n() > 0 {
			if at := int64(root>>workerBits) - 1; at <= e.arrival {
				if at >= e.stop {
					if at >= end {
						break
					}
					e.closeSteps(at)
				}
				e.now = at
				w := int(root & workerMask)
				if done, ok := e.pickUp(w); ok {
					root = p.busy.replace(w, min(done, end)) // free at the end or after: never, in the run
				} // else it is free from now, as its key says
				continue
			}
		}
		if e.arrival >= e.stop {
			if e.arrival >= end {
				break
			}
			e.closeSteps(e.arrival)
		}
		e.now = e.arrival
		if done, ok := e.pickupArrive(root); ok {
			root = p.busy.replace(int(root&workerMask), min(done, end))
		}
	}
	e.pickupEnd()
}

// pickupArrive is a new person arriving now: newPerson and arrive, for
// the policies and Configs the path takes, where root is the workers'
// tree's. If the earliest free worker takes the request at once, it
// returns when that worker is next free.
func (e *engine) pickupArrive(root uint64) (done int64, served bool) {
	p := &e.pick
	now := e.now
	order := e.comesToOrder()
	w := &e.windows[windowOf(now)]
	w.People++
	sale := e.saleAt(now)
	if sale {
		e.sale.People++
		if order {
			e.sale.Orders++
		}
	}
	e.scheduleArrival(now)
	w.Attempts++
	if sale {
		e.saleAttempts++
	}
	if now == p.tie {
		p.ties++
		if p.ties > pickupMostTies {
			panic("sim: more than 16,383 arrivals in one nanosecond")
		}
	} else {
		p.tie, p.ties = now, 0
	}
	key := uint64(now)<<pickupTShift | p.ties<<pickupTieShift
	if order {
		key |= pickupOrder
	}
	if sale {
		key |= pickupSale
	}
	waiting := p.previews.n() + p.orders.n()
	switch e.admitRule {
	case admitPriority:
		if waiting >= e.bound {
			if !order || p.previews.n() == 0 {
				e.count(w, sale, order, refused, 0) // it hears no at once (rule 11)
				return 0, false
			}
			// the newest preview makes room (rule 11)
			k := p.previews.popBack()
			e.noteWaited(k)
			o := refused
			if now >= pickupT(k)+e.timeout { // its client has gone: it hears nothing
				o = timedOut
			}
			e.count(&e.windows[windowOf(pickupT(k))], k&pickupSale != 0, k&pickupOrder != 0, o, 0)
		}
	case admitCoDel: // Fail at Scale's onNewRequest (rule 9)
		if waiting == 0 {
			e.lastEmpty = now
		}
		if now-e.lastEmpty > e.codelInterval {
			key |= pickupTight
		}
	}
	if int64(root>>workerBits)-1 <= now { // a worker free, and so nothing waiting: served at once
		return e.pickupServe(key, int(root&workerMask)), true
	}
	if order && e.admitRule == admitPriority {
		p.orders.pushBack(key)
	} else {
		p.previews.pushBack(key)
	}
	if n := p.previews.n() + p.orders.n(); n > e.longestQueue {
		e.longestQueue = n
	}
	return 0, false
}

// pickUp is a worker coming free now taking the next request it serves, as
// startWork does: lifo's newest while the queue has not been empty for
// CoDelInterval, else the oldest (rule 10), refusing or dropping those
// over their limit (rule 9); priority's oldest of its two lines (rule 11).
// It returns when the worker is next free, or false if nothing waits.
func (e *engine) pickUp(w int) (done int64, ok bool) {
	p := &e.pick
	for {
		var k uint64
		switch {
		case p.previews.n()+p.orders.n() == 0:
			return 0, false
		case e.admitRule == admitPriority:
			if p.orders.n() == 0 || (p.previews.n() > 0 && p.previews.front() < p.orders.front()) {
				k = p.previews.popFront()
			} else {
				k = p.orders.popFront()
			}
		case e.now-e.lastEmpty > e.codelInterval:
			k = p.previews.popBack()
		default:
			k = p.previews.popFront()
		}
		e.noteWaited(k)
		if e.pickup {
			limit := e.codelInterval
			if k&pickupTight != 0 {
				limit = e.codelTarget
			}
			if t0 := pickupT(k); e.now-t0 > limit { // over its limit: refused, or dropped if its client has gone
				o := refused
				if e.now >= t0+e.timeout {
					o = timedOut
				}
				e.count(&e.windows[windowOf(t0)], k&pickupSale != 0, k&pickupOrder != 0, o, 0)
				continue
			}
		}
		return e.pickupServe(k, w), true
	}
}

// pickupServe is worker w starting on k now, as serve does, and what
// becomes of it, as endService and result would say: answered, served to
// nobody, or still in service when the run ends. It returns when the
// worker is next free.
func (e *engine) pickupServe(k uint64, w int) int64 {
	now, t0 := e.now, pickupT(k)
	sale, order := k&pickupSale != 0, k&pickupOrder != 0
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
		e.pick.svc[w] = pickupService{done, late}
	}
	win := &e.windows[windowOf(t0)]
	switch {
	case done >= e.end: // in service when the run ends (result's caught)
		o := unfinished
		if deadline < e.end {
			o = timedOut
		}
		e.count(win, sale, order, o, 0)
	case late: // served to nobody (rule 4)
		e.wasted++
		e.count(win, sale, order, timedOut, 0)
	default:
		e.count(win, sale, order, answered, done-t0)
	}
	return done
}

// pickupEnd settles the requests still waiting when the run ends, as
// result does; result notes the oldest one's wait (oldestWaiting).
func (e *engine) pickupEnd() {
	p := &e.pick
	e.now = e.end
	for _, l := range []*blockLine{&p.previews, &p.orders} {
		for k := range l.all() {
			o := unfinished
			if pickupT(k)+e.timeout < e.end {
				o = timedOut
			}
			e.count(&e.windows[windowOf(pickupT(k))], k&pickupSale != 0, k&pickupOrder != 0, o, 0)
		}
	}
}

// oldest is when the request that has waited longest arrived, ns, and
// false if none waits.
func (p *pickupLines) oldest() (t0 int64, ok bool) {
	switch {
	case p.previews.n() > 0 && (p.orders.n() == 0 || p.previews.front() < p.orders.front()):
		return pickupT(p.previews.front()), true
	case p.orders.n() > 0:
		return pickupT(p.orders.front()), true
	}
	return 0, false
}

// inService is, for a series' boundary at b, the services started before
// b and not ended by it: their worker time after b, ns, that the engine
// has booked as useful and as wasted, and how many of them the path has
// counted answered and served to nobody, which the event loop counts only
// when they end.
func (p *pickupLines) inService(b, end int64) (useful, wasted int64, answered, nobody int) {
	for _, s := range p.svc {
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

// pickupT is a waiting request's arrival time, ns.
func pickupT(k uint64) int64 { return int64(k >> pickupTShift) }

// noteWaited is noteQueueWait for a waiting request k.
func (e *engine) noteWaited(k uint64) {
	if w := e.now - pickupT(k); w > e.longestWait {
		e.longestWait = w
	}
}

// windowOf is the window of a time t, ns, at least 0.
func windowOf(t int64) int { return int(uint64(t) / windowNS) }
