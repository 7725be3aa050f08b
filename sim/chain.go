package sim

import "math"

// A chain of hops (rule 40): the entry, the post's service with its
// people, calls the first hop, which calls the next, each call through
// the proxy in front of the hop called. Each hop is an engine of its own,
// with its own workers, queue, policy and clock; a worker that calls
// downstream is held until the call returns, answered or failed, its
// proxy's retries included. The chain runs the engines in one order of
// events: the hop whose next event is earliest goes first, the hop nearer
// the entry on a tie, and a call or a reply between two hops happens in
// the nanosecond of the event that makes it.

// hopLink is an engine's place in a chain; its zero value is a service
// alone.
type hopLink struct {
	chained              bool    // part of a chain: the service's end and the tries' timeouts take the chain's path
	upstream, downstream *engine // the hop that calls it and the one it calls; nil at the ends
	// the proxy in front of it and its budget, nil for the entry, whose
	// client is the people's
	proxy  *Proxy
	budget retryBudget
	// callTimeout is the caller's timeout on a whole call to it, ns
	callTimeout int64
	// errorsBelow is Hop.ErrorShare as a bound on the errors stream's
	// draws (as ordersBelow), 0 for none
	errorsBelow uint64
	errors      stream
	// held are the workers held for a call downstream, each with its
	// attempt and when the call started, ns; a held attempt's seq is its
	// place here
	held []heldCall
	// callingNS is the worker time held for calls that have returned
	callingNS int64
	// callsMade counts the calls it made downstream, callsFailed those
	// that failed, and errorAnswers the hop's own answers that were errors
	callsMade, callsFailed, errorAnswers int
}

type heldCall struct {
	i     id
	start int64
}

// runChain runs c, whose Hops are not empty, and returns the entry's
// Result with each hop's.
func runChain(c Config) Result {
	es := newChain(c)
	runLinked(es)
	return chainResult(c, es)
}

// newChain prepares a run of c's chain: an engine a service, the entry
// first, each linked to the hop it calls.
func newChain(c Config) []*engine {
	hops := c.HopList()
	es := make([]*engine, 1+len(hops))
	es[0] = newEngine(c, nil)
	for k, h := range hops {
		hc := c.hopConfig(h)
		hc.Seed = hopSeed(c.Seed, k+1)
		e := newEngine(hc, nil)
		p := h.Proxy
		e.proxy, e.budget = &p, p.newBudget()
		e.callTimeout = ms(h.TimeoutMS)
		if h.ErrorShare > 0 {
			e.errorsBelow = uint64(math.Ceil(h.ErrorShare * (1 << 53)))
			e.errors = newStream(hc.Seed, streamErrors)
		}
		e.upstream = es[k]
		es[k].downstream = e
		es[k+1] = e
		// a call is the sale's when the entry's person would be: made in
		// the sale's window, or its waves, or the incident's (rule 40)
		entry := es[0]
		e.peopleStart, e.peopleEnd, e.peopleNS, e.calm = entry.peopleStart, entry.peopleEnd, entry.peopleNS, entry.calm
		e.waveLen, e.waveEvery = entry.waveLen, entry.waveEvery
	}
	for _, e := range es {
		e.chained = true
	}
	return es
}

// chainResult is the Result of c's chain, run on es: the entry's, with
// each hop's, and each service's recovery by the chain's fluid view.
func chainResult(c Config, es []*engine) Result {
	hops := c.HopList()
	loads := c.ChainLoads()
	r := es[0].result()
	if r.Recovery == Backlog && !stillDrains(loads[1:]) {
		r.Recovery = Stuck // it drains alone, but a hop behind it does not
	}
	people := float64(r.People)
	for k, e := range es[1:] {
		hr := HopResult{Hop: hops[k], Result: e.result()}
		switch hr.Result.Recovery { // rule 18 by the chain's fluid view: the hop has no traffic of its own
		case Normal, Unmeasured:
		default:
			hr.Result.Recovery = chainRecovery(loads, k+1, e.cfg)
		}
		if people > 0 {
			hr.TriesPerPerson = float64(hr.Result.Attempts) / people
		}
		r.Hops = append(r.Hops, hr)
	}
	return r
}

// runLinked processes the chain's events in order until the run's end:
// each turn, the engine whose next event is earliest handles its events
// until another engine's next (the nearer the entry first on a tie) or
// the series' next step, or until it calls or answers another engine,
// which may give that one an earlier event.
func runLinked(es []*engine) {
	end := es[0].end
	next := make([]int64, len(es)) // each engine's next event, ns
	for {
		best, bestAt := -1, int64(math.MaxInt64)
		for k, e := range es {
			if next[k] = e.nextAt(); next[k] < bestAt {
				best, bestAt = k, next[k]
			}
		}
		if bestAt >= end {
			return
		}
		stop := end
		for k, at := range next {
			if k == best {
				continue
			}
			if k > best && at < math.MaxInt64 {
				at++ // its events at bestAt come after best's
			}
			stop = min(stop, at)
		}
		if es[0].series != nil { // the same steps for every hop
			if bestAt >= es[0].series.next {
				for _, e := range es {
					e.closeSteps(bestAt)
				}
			}
			stop = min(stop, es[0].series.next)
		}
		e := es[best]
		e.stop = stop
		e.until()
	}
}

// nextAt is the time of the engine's next event, ns; math.MaxInt64 for
// none.
func (e *engine) nextAt() int64 {
	at, _, _ := e.nextOwn()
	if e.timeouts.n > 0 {
		at = min(at, e.timeouts.buf[e.timeouts.head].at)
	}
	if e.refusing.n > 0 {
		at = min(at, e.refusing.buf[e.refusing.head].at)
	}
	if e.retryLine.n > 0 {
		at = min(at, e.retryLine.buf[e.retryLine.head].at)
	}
	if e.events.n > 0 {
		at = min(at, e.events.buf[0].at)
	}
	return at
}

// yield ends the engine's turn after the events of this nanosecond: it
// has called or answered another, which may now have an event sooner.
func (e *engine) yield() { e.stop = min(e.stop, e.now+1) }

// call is the hop before's worker calling e at `at`, ns, for its attempt
// caller: the call's first try, through e's proxy.
func (e *engine) call(at int64, caller id, order bool) {
	e.advance(at)
	i := e.alloc()
	a := e.at(i)
	a.first = at
	a.try = 1
	a.refs = 1
	a.order = order
	a.paid = int32(caller)
	a.window = int16(at / windowNS)
	e.windows[a.window].People++
	a.sale = e.inSale(a)
	if a.sale {
		e.sale.People++
		if a.order {
			e.sale.Orders++
		}
	}
	e.arrive(i, a)
}

// caller is the attempt of the hop before whose call a is.
func caller(a *attempt) id { return id(a.paid) }

// tryTimeout schedules the timeout of try a (i) that e's proxy sends: at
// the proxy's per-try timeout, or the call's deadline if sooner, when it
// is cut short (gaveUp). Every try has one, since the caller hears at once
// of the call it ends. A call's first try comes due a constant time after
// it is sent, so in the order sent, and waits in the timeout line; a
// retry's may come before an earlier try's, and waits in the heap.
func (e *engine) tryTimeout(i id, a *attempt) {
	if end := a.first + e.callTimeout; end < a.deadline {
		a.deadline = end
	}
	if e.budget != nil {
		e.budget.sent(e.now, a.try > 1)
	}
	a.refs++
	ev := event{at: a.deadline, seq: nextSeq(&e.timeoutSeq), a: i, kind: timeoutDue}
	if a.try == 1 {
		e.timeouts.pushBack(ev)
		e.due(ev, fromTimeouts)
		return
	}
	e.events.push(ev)
	e.due(ev, fromHeap)
}

// endChained is endService for a hop of a chain: the services' top ends,
// now. An error (Hop.ErrorShare) answers at once; a hop that calls
// downstream keeps the worker and calls; else the worker is free and
// answers.
func (e *engine) endChained() {
	i := e.services.buf[0].a
	e.services.pop()
	a := e.at(i)
	switch {
	case e.errorsBelow != 0 && e.errors.Uint64()>>11 < e.errorsBelow:
		e.errorAnswers++
		e.free++
		e.reply(i, a, false)
		e.dispatch()
	case e.downstream != nil:
		a.seq = uint64(len(e.held))
		e.held = append(e.held, heldCall{i, e.now})
		e.callsMade++
		e.downstream.call(e.now, i, a.order)
		e.yield()
	default:
		e.free++
		e.reply(i, a, true)
		e.dispatch()
	}
}

// callReturned is the call of held attempt i ending at `at`, ns:
// answered (ok) or failed. Its worker is free again, unless a capacity
// loss is owed one (rule 22), and answers its own client.
func (e *engine) callReturned(at int64, i id, ok bool) {
	e.advance(at)
	a := e.at(i)
	k := int(a.seq)
	e.callingNS += e.now - e.held[k].start
	last := len(e.held) - 1
	e.held[k] = e.held[last]
	e.at(e.held[k].i).seq = uint64(k)
	e.held = e.held[:last]
	if !ok {
		e.callsFailed++
	}
	e.workerDone()
	e.reply(i, a, ok)
	e.dispatch()
	e.yield()
}

// reply is the hop answering attempt i (a): with its answer (ok), or an
// error, which its client hears as a refusal. A client that has gone
// hears nothing, and the work was wasted (rule 4).
func (e *engine) reply(i id, a *attempt, ok bool) {
	switch {
	case e.gone(a):
		e.wasted++
		e.lost(a)
	case !ok:
		e.hear(a)
	default:
		a.replied = true
		if e.upstream == nil {
			e.accepted(a)
		} else if e.budget != nil {
			e.budget.ended(e.now, a.try > 1, tryAnswered)
		}
		e.count(&e.windows[a.window], a.sale, a.order, answered, e.now-a.first)
		if e.upstream != nil {
			e.upstream.callReturned(e.now, caller(a), true)
			e.yield()
		}
	}
	if e.lim != nil {
		e.lim.leave(e, i, a, false, false)
	}
	e.release(i, a)
}

// proxyRetryOrSettle is retryOrSettle for the tries of e's proxy: after
// try a ended with o (refused, or timed out), the proxy retries it, as
// rule 41 says, unless the call's deadline came, the proxy does not retry
// that, its tries are spent, or its budget refuses; else the call ends
// with o, and its caller hears.
func (e *engine) proxyRetryOrSettle(a *attempt, o outcome) {
	if o == timedOut && e.now >= a.first+e.callTimeout {
		o = gaveUp // the call's own deadline, not the try's
	}
	if e.budget != nil {
		end := tryRefused
		switch o {
		case timedOut:
			end = tryTimedOut
		case gaveUp:
			end = tryAbandoned
		}
		e.budget.ended(e.now, a.try > 1, end)
	}
	if o == gaveUp || e.final(a) || !e.proxy.retriesOn(o == refused) {
		e.settle(a, o, 0)
		return
	}
	if e.budget != nil && !e.budget.allow(e.now) {
		e.retriesDeclined++
		e.settle(a, o, 0)
		return
	}
	// the caller gives up at its deadline, whatever the backoff
	at := min(e.now+e.proxy.backoffNS(a.try, e.clientRand.Float64()), a.first+e.callTimeout)
	e.retriesMade++
	j := e.alloc()
	b := e.at(j)
	b.first, b.order, b.window, b.sale, b.paid = a.first, a.order, a.window, a.sale, a.paid
	b.try = a.try + 1
	b.refs = 1
	b.prevRefused = o == refused
	ev := event{at: at, seq: nextSeq(&e.arrivalSeq), a: j, kind: retryArrival}
	e.events.push(ev)
	e.due(ev, fromHeap)
}

// proxySend is the proxy sending retry i, unless its call's deadline has
// come during the backoff: then the call has timed out.
func (e *engine) proxySend(i id) {
	a := e.at(i)
	if e.now >= a.first+e.callTimeout {
		if e.budget != nil {
			e.budget.ended(e.now, true, tryUnsent) // allowed, never sent
		}
		e.settle(a, gaveUp, 0)
		e.release(i, a)
		return
	}
	e.arrive(i, a)
}

// callEnded tells the hop before that the call a's person stands for
// ended with o, unless the run has ended.
func (e *engine) callEnded(a *attempt, o outcome) {
	if o == unfinished || e.now >= e.end {
		return
	}
	e.upstream.callReturned(e.now, caller(a), o == answered)
	e.yield()
}

// callingBy is the worker time held for calls downstream from the run's
// start to t, ns, which is not before the last event handled.
func (e *engine) callingBy(t int64) int64 {
	ns := e.callingNS
	for _, h := range e.held {
		ns += t - h.start
	}
	return ns
}

// HopResult is how a hop behind the entry fared (rule 40).
type HopResult struct {
	// Hop is the hop as the Config's Hops set it.
	Hop Hop `json:"hop"`
	// TriesPerPerson is the tries the hop received per person who came to
	// the entry: the retries of every layer above it, multiplied.
	TriesPerPerson float64 `json:"tries_per_person"`
	// Result is the hop's own run: its people are the calls the hop
	// before made to it, their attempts its proxy's tries, and its
	// client's retries the proxy's.
	Result Result `json:"result"`
}
