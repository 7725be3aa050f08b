package sim

// An adaptive concurrency limit (rules 34 and on) sits in front of the
// service's queue, as Envoy's filter or Netflix's SimpleLimiter does: it
// admits a request while fewer than its limit are in flight (admitted and
// not yet finished, queued or in service), refuses the rest at once
// (a refusal as rule 12 counts it, with its cost), and learns the limit
// from each request that leaves. Behind it the queue is the post's
// unbounded one, where the service never learns that a client left, or
// with LimitSkip one that skips the abandoned.

// LimitQueue is the service's own queue behind an adaptive limit. The
// zero value is LimitFIFO, the post's.
type LimitQueue int

const (
	// LimitFIFO is the post's unbounded queue (rule 6): the service never
	// learns that a client left, and serves its request anyway.
	LimitFIFO LimitQueue = iota
	// LimitSkip skips the abandoned (rule 7): a worker drops a request
	// whose client has gone when it picks it up.
	LimitSkip
)

var limitQueueKeys = keys{
	typ:    "LimitQueue",
	noun:   "queue behind the limit",
	names:  []string{"fifo", "skip"},
	titles: []string{"Unbounded, serving the abandoned (the post's)", "Skip the abandoned"},
}

// String returns the queue's key, as used in JSON, URLs and flags.
func (q LimitQueue) String() string { return limitQueueKeys.name(int(q)) }

// MarshalText encodes the queue as its key.
func (q LimitQueue) MarshalText() ([]byte, error) { return limitQueueKeys.marshal(int(q)) }

// UnmarshalText decodes a queue from its key, ignoring case and spaces.
func (q *LimitQueue) UnmarshalText(b []byte) error {
	i, err := limitQueueKeys.parse(string(b))
	if err != nil {
		return err
	}
	*q = LimitQueue(i)
	return nil
}

// NoLimit is the limit of an adaptive limit that sheds nothing now: the
// BBR limits' while the CPU is under its threshold and out of the
// cool-off (rule 39).
const NoLimit = maxLimit

// limiter is an adaptive limit's rule, as its library computes it.
type limiter interface {
	// limit is the most requests it lets be in flight now.
	limit() int
	// sample hears one admitted request leave at now, ns: admitted at
	// start, ns, when inflight were in flight counting itself; dropped
	// says the service saw it fail rather than finish. Each library
	// says what a drop is; its rule in MODEL.md states it.
	sample(now, start int64, inflight int, dropped bool)
}

// ticker is a limiter with timers of its own (Envoy's windows): due is
// when it next wants tick, ns (math.MaxInt64 for never), and tick runs the
// timers due at now. A sample may change when it is due.
type ticker interface {
	due() int64
	tick(now int64)
}

// measurer is a limiter that pins its limit low while it measures
// (Envoy's minimum round trip, rule 37): measuring says it is now, and
// measured gives the measurements begun by now, ns, their time, ns (the
// one under way up to now), and the limit while measuring.
type measurer interface {
	measuring() bool
	measured(now int64) (count int, ns int64, limit int)
}

// watcher is a limiter that watches the service and its own refusals
// (the CPU-gated BBR limits, rule 39): watch tells it how to read the
// worker time, ns, spent busy and present (not gone, rule 22) from the
// run's start to a time, and the requests in flight; arrive hears each
// arrival
// at now, ns, before its admission is decided, as the library's check
// runs on each request, and refused hears the limit refuse it.
type watcher interface {
	watch(s *limitState, worked func(t int64) (busy, present int64))
	arrive(now int64)
	refused(now int64)
}

// limitState is the engine's side of an adaptive limit: the rule, the
// requests in flight, and for each request in flight (by attempt id) the
// requests in flight when it was admitted, counting itself.
type limitState struct {
	rule     limiter
	inFlight int
	admitted []int32
	// what the Result reports: the limit's range over the run, and the
	// attempts it refused, those of people outside the sale among them
	lowest, highest int
	refused         int
	normalRefused   int
	// the rule, if it measures (nil otherwise), and the attempts that
	// arrived while it measured, and those it refused of them
	measurer                            measurer
	measuringAttempts, measuringRefused int
	// the settling (rule 38): the sale and the time after it, the limit
	// as last noted and since when, ns (-1: the run's start), and the
	// first time after that a stretch samples, ns: a limit that changes
	// again before then was never sampled
	stretches [2]stretch
	held      int
	heldFrom  int64
	nextPeek  int64
	// the timer's event in the engine's heap: when it is, and its
	// generation, so that one the limiter has moved since does nothing
	timerAt  int64
	timerGen id
	// the rule, if it watches the service (nil otherwise)
	watcher watcher
	// the rule, if it has timers of its own (nil otherwise): asserted
	// once, since under WebAssembly Go caches no type assertion to an
	// interface (abi.UseInterfaceSwitchCache), and one a schedule cost
	// the limiters' runs 6% of their time in the page's workers
	ticker ticker
}

// newLimitState starts the limiter of e's Config's policy; nil for a
// policy without one.
func newLimitState(e *engine) *limitState {
	c := e.cfg
	sp := c.Policy.spec()
	if sp.limiter == nil {
		return nil
	}
	r := sp.limiter(c)
	n := r.limit()
	l := &limitState{rule: r, lowest: n, highest: n, timerAt: -1, held: n, heldFrom: -1}
	if c.SaleS > 0 {
		l.stretches = [2]stretch{newStretch(e.saleStart, min(e.saleEnd, e.end)), newStretch(e.saleEnd, e.end)}
	}
	l.nextPeek = l.peek(-1)
	l.measurer, _ = r.(measurer)
	l.ticker, _ = r.(ticker)
	if w, ok := r.(watcher); ok {
		l.watcher = w
		w.watch(l, e.workedBy)
	}
	return l
}

// admit decides attempt i's admission (a arriving now): true, and counted
// in flight, while fewer than the limit are in flight.
func (l *limitState) admit(i id, a *attempt) bool {
	measuring := l.measurer != nil && l.measurer.measuring()
	if measuring {
		l.measuringAttempts++
	}
	if l.watcher != nil {
		l.watcher.arrive(a.t0)
		if n := l.rule.limit(); n != l.held {
			l.change(n, a.t0)
		}
	}
	if l.inFlight >= l.rule.limit() {
		if l.watcher != nil {
			l.watcher.refused(a.t0)
		}
		l.refused++
		if !a.sale {
			l.normalRefused++
		}
		if measuring {
			l.measuringRefused++
		}
		return false
	}
	l.inFlight++
	for int(i) >= len(l.admitted) {
		l.admitted = append(l.admitted, 0)
	}
	l.admitted[i] = int32(l.inFlight)
	return true
}

// leave is attempt i (a), admitted, leaving now: finished, or dropped
// as its library counts a drop. ignored says the service saw neither (a
// worker lost with the request, rule 22): it leaves the count, but the
// rule hears no sample, as a library's onIgnore.
func (l *limitState) leave(e *engine, i id, a *attempt, dropped, ignored bool) {
	l.inFlight--
	if ignored {
		return
	}
	l.rule.sample(e.now, a.t0, int(l.admitted[i]), dropped)
	if n := l.rule.limit(); n != l.held {
		l.change(n, e.now)
	}
	l.schedule(e)
}

// change notes a limit that a sample or a timer changed to n at now, ns:
// its range over the run, and for the stretches (rule 38) what it was
// since it last changed, if they sampled it since (a limit changed at now
// is sampled at now as it was before), and when they next sample. Its
// callers check for a change themselves, a comparison rather than a call
// for each sample.
func (l *limitState) change(n int, now int64) {
	l.lowest, l.highest = min(l.lowest, n), max(l.highest, n)
	if now >= l.nextPeek {
		for k := range l.stretches {
			l.stretches[k].hold(l.heldFrom, now, l.held)
		}
		l.nextPeek = l.peek(now)
	}
	l.held, l.heldFrom = n, now
}

// peek is the first time after t, ns, that a stretch samples the limit.
func (l *limitState) peek(t int64) int64 {
	return min(l.stretches[0].next(t), l.stretches[1].next(t))
}

// schedule puts the limiter's timer in e's heap if it has one, and moves
// it if the limiter is now due at another time: the event in the heap for
// the old time then does nothing.
func (l *limitState) schedule(e *engine) {
	if l.ticker == nil {
		return
	}
	at := l.ticker.due()
	if at == l.timerAt || at >= e.end {
		if at >= e.end {
			l.timerAt = at
		}
		return
	}
	l.timerAt = at
	l.timerGen++
	ev := event{at: at, seq: nextSeq(&e.serviceSeq), a: l.timerGen, kind: limitTimer}
	e.events.push(ev)
	e.due(ev, fromHeap)
}

// timer is the limiter's timer event ev, now: the limiter's timers run if
// it is still the one scheduled, and the next is scheduled.
func (l *limitState) timer(e *engine, ev event) {
	if ev.a != l.timerGen {
		return // moved since
	}
	l.timerAt = -1
	l.ticker.tick(e.now)
	if n := l.rule.limit(); n != l.held {
		l.change(n, e.now)
	}
	l.schedule(e)
}

// stats is what the Result reports of the limit, at the run's end, ns.
func (l *limitState) stats(end int64, attempts, saleAttempts int) *LimitStats {
	for k := range l.stretches { // the limit as it stood until the end
		l.stretches[k].hold(l.heldFrom, end, l.held)
	}
	s := &LimitStats{Lowest: l.lowest, Highest: l.highest, AtEnd: l.rule.limit(), Refused: l.refused,
		SettledInSaleMS: l.stretches[0].settledMS(), SettledAfterSaleMS: l.stretches[1].settledMS()}
	if n := attempts - saleAttempts; n > 0 {
		s.NormalRefusedShare = float64(l.normalRefused) / float64(n)
	}
	if l.measurer != nil {
		n, ns, limit := l.measurer.measured(end)
		s.Measurements = &Measurements{Count: n, Limit: limit, TimeMS: float64(ns) / 1e6, Attempts: l.measuringAttempts, Refused: l.measuringRefused}
	}
	return s
}

// LimitStats is what a run with an adaptive limit reports of it.
type LimitStats struct {
	// Lowest and Highest are the limit's range over the run, and AtEnd
	// its value when the run ended, in requests in flight.
	Lowest  int `json:"lowest"`
	Highest int `json:"highest"`
	AtEnd   int `json:"at_end"`
	// Refused is the attempts the limit refused.
	Refused int `json:"refused"`
	// NormalRefusedShare is the share of the attempts of people outside
	// the sale that the limit refused: its false sheds, in [0, 1].
	NormalRefusedShare float64 `json:"normal_refused_share"`
	// SettledInSaleMS is how long after the sale began the limit settled
	// for the rest of the sale, and SettledAfterSaleMS how long after the
	// sale ended it settled for the rest of the run, ms, in whole seconds
	// (rule 38); nil when it did not, or there is no sale.
	SettledInSaleMS    *float64 `json:"settled_in_sale_ms"`
	SettledAfterSaleMS *float64 `json:"settled_after_sale_ms"`
	// Measurements is what the limit did while it measured, for a limit
	// that pins itself low to measure (Envoy's minimum round trip, rule
	// 37); nil for the others.
	Measurements *Measurements `json:"measurements,omitempty"`
}

// Measurements is what a limit that pins itself low to measure did while
// it measured (Envoy's minimum round trip, rule 37).
type Measurements struct {
	// Count is the measurements begun, the first at the run's start; the
	// last may not have ended when the run did.
	Count int `json:"count"`
	// Limit is the limit while measuring, in requests in flight.
	Limit int `json:"limit"`
	// TimeMS is their time, ms, the last up to the run's end.
	TimeMS float64 `json:"time_ms"`
	// Attempts is the attempts that arrived while it measured, and
	// Refused those of them it refused.
	Attempts int `json:"attempts"`
	Refused  int `json:"refused"`
}

// workedBy is the worker time, ns, spent busy (serving or refusing) and
// present (not gone) from the run's start to t, which is not before the
// last event handled: the engine books each service's, refusal's and
// loss's whole time when it starts, so what was spent by t is that less
// what is still to come.
func (e *engine) workedBy(t int64) (busy, present int64) {
	busy = e.usefulNS + e.wastedNS + e.refusingNS
	for _, ev := range e.services.buf[:e.services.n] {
		busy -= max(0, min(ev.at, e.end)-t)
	}
	for k := 0; k < e.refusing.n; k++ {
		busy -= max(0, min(e.refusing.at(k).at, e.end)-t)
	}
	gone := e.goneNS - int64(e.down)*(e.end-t)
	return busy, int64(e.cfg.Workers)*t - gone
}
