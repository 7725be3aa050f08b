package sim

import (
	"math"
	"math/bits"
	"strconv"
	"sync"
)

// attempt is one request a client sends. A person's first attempt and each
// retry are attempts; the person's own facts (first arrival, order or
// preview, window) travel with every attempt, so there is no person record to
// keep alive. Attempts are recycled once nothing refers to them.
type attempt struct {
	first int64 // the person's first arrival, ns
	t0    int64 // this attempt's arrival, ns
	// deadline is when its client gives up, ns: t0 + timeout (rule 4), or
	// sooner when its person's patience runs out first (rule 4a).
	deadline int64
	// seq is its arrival order, while it waits, to keep the queue's two
	// lines in order; once in service, when its service started, ns, should
	// a loss take its worker (see started).
	seq uint64
	try int32 // 1 for the first attempt, 2 for the first retry, ...
	// paid is, for the budget client, the tokens this retry cost; behind a
	// proxy (a hop of a chain, whose client is never the budget client),
	// the caller's attempt in the hop before's pool (caller, chain.go)
	paid    int32
	window  int16 // the person's window, by first arrival (at most a day's 8,640)
	refs    int8  // how many places hold it: the timeout line, the system, a retry event
	order   bool  // an order rather than a price preview
	replied bool  // its client heard back: answered in time, or a refusal it heard
	// tight says codel and lifo gave it the short limit, CoDelTargetMS,
	// rather than CoDelIntervalMS (rule 9).
	tight bool
	// prevRefused, on a retry not yet sent, says whether the attempt before
	// it was refused (rather than timed out), for people still waiting to
	// retry when the run ends.
	prevRefused bool
	// sale is inSale, noted when its person arrives, for the counts as the
	// attempt arrives, starts and is answered.
	sale bool
}

// outcome is how a person's last attempt ended (rule 14).
type outcome uint8

const (
	answered outcome = iota
	refused
	timedOut
	unfinished
	gaveUp // timed out, by the person's patience before the timeout (rule 4a)
)

// engine is one run in progress. Its state is grouped by concern, each
// group a struct of its own embedded here, so the engine reads its fields
// as its own.
type engine struct {
	cfg Config // the run's Config; what the engine needs in other units follows
	// times in ns
	end, saleStart, saleEnd int64
	timeout                 int64
	normalGap, saleGap      float64 // mean ns between arrivals; 0 for no arrivals; saleGap -1 for a shaped sale
	// who is measured (rule 15) and from when back to normal is (rule 17):
	// the sale's, unless an incident alone triggers the run (see
	// Config.PeopleStartS)
	peopleStart, peopleEnd, calm int64
	peopleNS                     uint64  // peopleEnd - peopleStart, or 0
	endF                         float64 // end as a float64: the longest a service may take, ns
	// a shaped sale (rule 25; see shape.go; saleGap is then -1): its
	// ramps, and its waves' length and spacing (waveEvery 0 for one wave)
	ramp, waveLen, waveEvery int64

	arrivals, orders, service, jitter stream
	// ordersBelow is OrderShare as a bound on the orders stream's draws:
	// a person comes to order when the draw's top 53 bits are below it
	// (comesToOrder).
	ordersBelow uint64
	draw        serviceDraw // how service times are drawn (rule 3a)

	policyState
	incidentState
	clientState
	hopLink // its place in a chain of hops (chain.go); zero for a service alone

	// the event loop's: the clock, what is due, the queue and the workers
	now  int64
	stop int64 // where the loop stops to look: the run's end, or the series' next step if sooner
	// the last events' seqs by rank (rule 1): each counts up from its
	// rank, so an event's seq is its rank and its place in one
	timeoutSeq, serviceSeq, arrivalSeq uint64
	arrival                            int64 // the next new person's arrival, ns; math.MaxInt64 for none
	arrSeq                             uint64
	timeouts                           ring[event] // clients giving up, in order of deadline (the timeout is the same for all)
	// services are the requests in service, by when they end; finishing
	// says their top is the one being handled, whose worker the next
	// service to start takes, replacing the top
	services  eventHeap
	finishing bool
	events    eventHeap // retries whose delays vary, and the incidents' starts and ends
	// Events a constant time after they are made come due in the order they
	// were made, so a line (first in, first out) does the heap's job in
	// O(1): refusals finishing (always RefusalCostMS on), and retries sent
	// after exactly RetryDelayMS (see retryOrSettle).
	refusing  ring[event]
	retryLine ring[event]
	// soonest is the earliest event of the lines and the heap of retries
	// and incidents, and soonestFrom where it is, while untilSoonest runs:
	// untilLines notes it, and due lowers it when an event is added.
	soonest     event
	soonestFrom int
	queue       queue
	queueSeq    uint64
	refusals    ring[id] // refusal work waiting for a worker (rule 12)
	free        int      // idle workers
	// the stretch of constant rate the last arrival was drawn in (rule 2):
	// its mean gap, ns, and its end, ns (where the rate changes or the run
	// ends); 0 for none, as when the rate is 0 or shaped
	stretchGap float64
	stretchEnd int64
	// rates is a rate table's stretches (rule 2b, traffic.go), nil without one
	rates []rateStretch

	// trace, when set (by tests), hears every event as it happens: its
	// time, what it is, and the attempt it is about.
	trace func(at int64, what string, a *attempt)

	lines     arrivalLines // the arrival-order path's memory (arrivalorder.go)
	pick      pickupLines  // the pickup path's (pickup.go)
	picking   bool         // the pickup path runs: its lines, not queue, hold what waits
	waitedOut bool         // the arrival-order path's waitOut ran, for tests
	// newcomersTook counts the attempts newcomers computed, and
	// newcomersLeft the attempts it left to arrivalOrder's loop, by why:
	// for tests.
	newcomersTook int
	newcomersLeft [newcomersLeaves]int

	pool  pool // every attempt in flight, by id, in blocks of no pointers, which the GC never scans
	used  int  // ids handed out from the pool so far
	spare []id // ids free for reuse

	measures
	series *seriesRecorder // nil unless the Config asks for a series
}

// policyState is the policy's part of a run: its mechanisms, from its
// spec (policy.go), and what they keep.
type policyState struct {
	// what the policy does with an arrival, how a worker takes from the
	// queue, and what it drops or refuses as a worker picks a request up;
	// pickup says it sheds anything there
	admitRule admission
	takeRule  taking
	shedRule  shedding
	pickup    bool
	bound     int         // the queue's bound, for bounded and priority (rule 8)
	lim       *limitState // the adaptive limit, for a policy with one (limiter.go)
	// codel's target and interval, ns (rule 9), and when an arrival last
	// found the queue empty
	codelTarget, codelInterval int64
	lastEmpty                  int64
	refusalCost                int64 // ns of a worker's time to say no (rule 12)
}

// incidentState is the incidents' part of a run (rules 22, 23 and 26;
// see incident.go).
type incidentState struct {
	incidents          bool    // any incident, or latency that grows with load: the service draw is stretched
	heap               float64 // HeapRequests, or 0 (rule 26)
	slowStart, slowEnd int64
	slowFactor         float64
	lossStart, lossEnd int64
	lossWorkers        int
	down               int   // workers gone now
	owed               int   // workers still to go, busy refusing when the loss started
	goneNS             int64 // worker time gone, booked to the run's end when a worker goes
	killed             int   // requests lost with the worker serving them
}

// clientState is the sending side's part of a run: retries, the client
// strategy (see Client) and people's patience.
type clientState struct {
	retries                                              int32
	retryDelay, retryJitter                              int64   // ns
	backoffBase, backoffCap                              float64 // ns
	tokens                                               int64
	refusalCostTokens, timeoutCostTokens, refill         int64
	history                                              slidingWindow
	clientRand                                           stream
	capacityPerNS                                        float64 // workers / mean service, requests per ns
	retriesMade, retriesDeclined, throttled, retriesSent int
	tokensSpent, tokensRefilled                          int64
	patient                                              bool    // people may give up before the timeout (rule 4a)
	patienceMean                                         float64 // ns
	patience                                             stream
}

// measures is what a run measures, for its Result.
type measures struct {
	windows                        []Window
	sale                           Sale
	waits                          waitHistogram
	queueWaits                     waitHistogram // the sale's attempts' waits in the queue (noteServed)
	wasted                         int
	usefulNS, wastedNS, refusingNS int64
	saleRefusingNS                 int64 // refusing during the sale
	longestWait                    int64
	longestQueue                   int
	saleAttempts                   int
	// of the sale's attempts a worker took into service
	// (queueWaits.count()), those that had waited in the queue, and the
	// sum of their waits in ns, in 128 bits (hi, lo): 64 could overflow
	// in a day-long run, and an integer sum is the same in any order
	saleWaited             int
	saleWaitHi, saleWaitLo uint64
}

// Run simulates one Config and returns what it measured, or the Config's
// validation errors. The same Config gives the same Result, to the bit, on
// every platform. It costs O(attempts x log(workers + pending retries)) time
// and memory proportional to the requests in flight.
func Run(c Config) (Result, error) {
	if err := c.Validate(); err != nil {
		return Result{}, err
	}
	if len(c.HopList()) > 0 {
		return runChain(c), nil
	}
	e := simulate(c, spentEngines.Get().(*engine))
	r := e.result()
	spentEngines.Put(e)
	return r, nil
}

// spentEngines are engines whose runs are over, whose memory Run reuses as
// Runs does (a Result refers to none of it); the garbage collector empties
// it, so it holds nothing for long. Its New is an empty engine, which
// newEngine takes as a finished one with no memory to give.
var spentEngines = sync.Pool{New: func() any { return new(engine) }}

// eventLoopOnly, set by tests alone (-event-loop), makes simulate use the
// event loop for every Config.
var eventLoopOnly bool

// simulate runs c to its end on an engine that takes prev's memory (nil for
// none), and returns the engine for its result. Three ways compute the
// same Result: the arrival-order recursion (arrivalorder.go), for the
// Configs arrivalOrderTakes accepts; the pickup path (pickup.go), for the
// lifo and priority Configs pickupTakes accepts; and the event loop for
// every Config.
func simulate(c Config, prev *engine) *engine {
	e := newEngine(c, prev)
	if !eventLoopOnly && arrivalOrderTakes(c) {
		e.arrivalOrder()
		return e
	}
	if !eventLoopOnly && pickupTakes(c) {
		e.runPickup()
		return e
	}
	e.loop()
	return e
}

func ms(x float64) int64 { return int64(math.Round(x * 1e6)) }

// newEngine prepares a run of c. With prev, a finished engine, it takes
// prev's memory instead of allocating its own.
func newEngine(c Config, prev *engine) *engine {
	c = c.Resolved() // a rate table's and a histogram's fields (rules 2b, 3b)
	e := &engine{
		cfg:       c,
		end:       int64(math.Round(c.DurationS * 1e9)),
		saleStart: int64(math.Round(c.SaleStartS * 1e9)),
		saleEnd:   int64(math.Round(c.SaleEndS() * 1e9)),
		timeout:   ms(c.TimeoutMS),
		// each rank's seqs count up from it (rule 1)
		timeoutSeq: rankTimeout, serviceSeq: rankService, arrivalSeq: rankArrival,
		arrivals: newStream(c.Seed, streamArrivals),
		orders:   newStream(c.Seed, streamOrders),
		service:  newStream(c.Seed, streamService),
		jitter:   newStream(c.Seed, streamJitter),
		draw:     newServiceDraw(c),
		policyState: policyState{
			refusalCost:   ms(c.RefusalCostMS),
			codelTarget:   ms(c.CoDelTargetMS),
			codelInterval: ms(c.CoDelIntervalMS),
		},
		clientState: clientState{
			retries:           int32(c.Retries),
			retryDelay:        ms(c.RetryDelayMS),
			retryJitter:       ms(c.RetryJitterMS),
			backoffBase:       c.BackoffBaseMS * 1e6,
			backoffCap:        c.BackoffCapMS * 1e6,
			tokens:            int64(c.BudgetTokens),
			refusalCostTokens: int64(c.BudgetRefusalCost),
			timeoutCostTokens: int64(c.BudgetTimeoutCost),
			refill:            int64(c.BudgetRefill),
			clientRand:        newStream(c.Seed, streamClient),
			capacityPerNS:     float64(c.Workers) / (c.ServiceMS * 1e6),
		},
		free: c.Workers,
	}
	if c.Patience == ExponentialPatience {
		e.patient = true
		e.patienceMean = c.PatienceMS * 1e6
		e.patience = newStream(c.Seed, streamPatience)
	}
	if c.Client == Ratio || c.Client == Throttle {
		e.history = newSlidingWindow(int(math.Round(c.ClientWindowS)))
	}
	if c.NormalRPS > 0 {
		e.normalGap = 1e9 / c.NormalRPS
	}
	if c.SaleRPS > 0 {
		e.saleGap = 1e9 / c.SaleRPS
	}
	if rows, ok := c.rateRows(); ok {
		e.rates = rateStretches(rows, c.scale(), c.ArrivalsShiftS)
	}
	sp := c.Policy.spec()
	e.admitRule, e.takeRule, e.shedRule = sp.admit, sp.take, sp.shed
	if e.admitRule == admitLimit && c.LimitQueue == LimitSkip {
		e.shedRule = shedAbandoned // behind the limit, the abandoned are skipped (rule 7)
	}
	if e.admitRule == admitBound || e.admitRule == admitPriority {
		e.bound = c.QueueBound()
	}
	e.queue.split = e.takeRule == takeOldestOfTwo
	e.ordersBelow = uint64(math.Ceil(c.OrderShare * (1 << 53)))
	e.pickup = e.shedRule != shedNothing
	e.lim = newLimitState(e)
	if prev != nil {
		e.recycle(prev)
	}
	e.waits.size(e.end)
	e.queueWaits.size(e.end)
	if c.Shaped() {
		e.startShape()
	}
	e.peopleStart, e.peopleEnd, e.calm = e.saleStart, e.saleEnd, e.saleEnd
	if c.HasIncident() {
		e.startIncidents()
	}
	if c.HeapRequests > 0 { // latency that grows with load (rule 26)
		e.incidents = true
		e.heap = float64(c.HeapRequests)
	}
	e.peopleNS = uint64(max(0, e.peopleEnd-e.peopleStart))
	e.endF = float64(e.end)
	e.windows = make([]Window, (e.end+windowNS-1)/windowNS)
	for i := range e.windows {
		e.windows[i].StartS = float64(int64(i)*windowNS) / 1e9
	}
	e.stop = e.end
	if c.SeriesStepS > 0 {
		e.series = newSeries(max(1, int64(math.Round(c.SeriesStepS*1e9))), e.end)
		e.stop = min(e.end, e.series.next)
	}
	if e.lim != nil { // its timers, if it has any
		e.lim.schedule(e)
	}
	e.scheduleArrival(0)
	e.startLines()
	return e
}

// The order of events in the same nanosecond (rule 1): first by a rank
// in the top bits of their seq, then in the order they were scheduled.
// Clients' timeouts come first, then the service's own events (workers
// finishing a service or a refusal, workers lost and back, a limit's
// timers), then arrivals (new people and retries). So a worker that
// finishes as a request arrives is free for it, and a request taken as its
// client times out is taken too late; the arrival-order path follows the
// same order (arrivalorder.go).
const (
	rankTimeout uint64 = 0
	rankService uint64 = 1 << 61
	rankArrival uint64 = 2 << 61
)

// nextSeq is the seq of the next event of a rank, whose last seq is at
// last: e.timeoutSeq, e.serviceSeq or e.arrivalSeq.
func nextSeq(last *uint64) uint64 {
	*last++
	return *last
}

// scheduleArrival draws the next new person's arrival after t: a Poisson
// process whose rate is piecewise constant (rule 2). A gap that crosses a
// change of rate is drawn again from the boundary, which memorylessness
// makes exact. While t is in the stretch the last arrival was drawn in
// (time only moves forward, so t is past its start), its gap is drawn
// here, with the ziggurat's first try inlined; else scheduleArrivalFrom
// finds t's stretch.
func (e *engine) scheduleArrival(t int64) {
	if t < e.stretchEnd {
		x, j, ok := e.arrivals.expLayer()
		if !ok {
			x = e.arrivals.expBeyond(j)
		}
		// d < float64(stretchEnd-t) is the two tests below, against the
		// boundary and the run's end, in one: the conversion is monotonic
		if d := float64(e.stretchGap * x); d < float64(e.stretchEnd-t) {
			e.arrival = t + int64(d)
			e.arrSeq = nextSeq(&e.arrivalSeq)
			return
		}
		t = e.stretchEnd
	}
	e.scheduleArrivalFrom(t)
}

// scheduleArrivalFrom is scheduleArrival from any t: it finds t's stretch
// of constant rate, and the next whenever a gap crosses into it, and notes
// the stretch the arrival falls in.
func (e *engine) scheduleArrivalFrom(t int64) {
	e.arrival = math.MaxInt64
	e.stretchEnd = 0
	for t < e.end {
		gap, boundary := e.rateAt(t)
		if gap > 0 {
			d := float64(gap * e.arrivals.ExpFloat64())
			if d < float64(boundary-t) && d < float64(e.end-t) {
				e.arrival = t + int64(d)
				e.stretchGap, e.stretchEnd = gap, min(boundary, e.end)
				break
			}
		} else if gap < 0 { // a shaped sale (rule 25), whose saleGap is -1: off the post's path
			e.scheduleShapedArrival(t)
			return
		}
		t = boundary
	}
	e.arrSeq = nextSeq(&e.arrivalSeq)
}

// rateAt returns the mean gap between new people's arrivals at time t, ns
// (0 for none), and when the rate next changes (rule 2).
func (e *engine) rateAt(t int64) (gap float64, boundary int64) {
	if e.rates != nil { // a rate table (rule 2b)
		return e.tableRateAt(t)
	}
	switch {
	case t < e.saleStart:
		return e.normalGap, e.saleStart
	case t < e.saleEnd:
		return e.saleGap, e.saleEnd
	}
	return e.normalGap, math.MaxInt64
}

// deadline is when a's client gives up (rules 4 and 4a), ns.
func (e *engine) deadline(a *attempt) int64 { return a.deadline }

// gaveUp reports whether a's person gives up before the client's timeout
// (rule 4a): then a is their last attempt, unless a refusal reaches them
// first.
func (e *engine) gaveUp(a *attempt) bool { return a.deadline-a.t0 < e.timeout }

// limit is how long a may wait under codel and lifo, ns (rule 9).
func (e *engine) limit(a *attempt) int64 {
	if a.tight {
		return e.codelTarget
	}
	return e.codelInterval
}

// gone reports whether a's client has given up by now (rule 4). Time only
// moves forward, so that is whether its deadline has come, whether or not
// its timeout is an event: a person's last attempt has none, since nothing
// follows it.
func (e *engine) gone(a *attempt) bool { return e.now >= e.deadline(a) }

// inSale reports whether a's person is one of the sale's people: in the
// window, and for a sale that comes back, in one of its waves (rule 25).
func (e *engine) inSale(a *attempt) bool { return e.saleAt(a.first) }

// saleAt is inSale for a person who first arrived at first, ns: in the
// window of the sale's people (rule 15), or of whatever the incidents
// measure instead, peopleStart <= first < peopleEnd, in one unsigned
// comparison (first and peopleStart are at least 0, so their difference
// does not overflow, and it wraps to a huge number when first is before
// peopleStart), and in a wave if the sale comes back.
func (e *engine) saleAt(first int64) bool {
	return uint64(first-e.peopleStart) < e.peopleNS && (e.waveEvery == 0 || (first-e.peopleStart)%e.waveEvery < e.waveLen)
}

// comesToOrder draws whether a new person comes to order rather than to
// look (rule 1): whether the orders stream's next uniform draw, Float64,
// is below OrderShare. Float64 is the draw's top 53 bits, k, times 2^-53,
// both exactly, so the test is k < OrderShare * 2^53, and, k an integer,
// k < ceil(OrderShare * 2^53), ordersBelow: the same answer for every
// draw, without the conversion and the multiplication.
func (e *engine) comesToOrder() bool { return e.orders.Uint64()>>11 < e.ordersBelow }

// final reports whether a is its person's last possible attempt.
func (e *engine) final(a *attempt) bool { return a.try > e.retries }

// lost is a gone attempt a leaving the service unanswered: if it was its
// person's last attempt, nothing else will settle the person, who timed out
// or gave up (rule 4a).
func (e *engine) lost(a *attempt) {
	if e.proxy != nil { // its proxy heard its timeout already
		return
	}
	if e.final(a) || e.gaveUp(a) {
		e.settle(a, e.expired(a), 0)
	}
}

// expired is how a's client ended when its deadline came: timed out, or its
// person gave up first (rule 4a).
func (e *engine) expired(a *attempt) outcome {
	if e.gaveUp(a) {
		return gaveUp
	}
	return timedOut
}

// Where the next event comes from.
const (
	fromArrivals  = iota // a new person
	fromTimeouts         // the timeout line
	fromRefusing         // the line of refusals finishing
	fromRetryLine        // the line of retries sent after the fixed delay
	fromHeap             // retries whose delays vary, the incidents
	fromServices         // a service ending
)

// loop processes events in (time, seq) order until the run's end, stopping
// at each of the series' steps, if the run has a series, to record it.
func (e *engine) loop() {
	for {
		at := e.until()
		if at >= e.end {
			return
		}
		e.closeSteps(at)
	}
}

// until processes events in (time, seq) order until the next is at or
// after e.stop, and returns its time. Without a series e.stop is the run's
// end, and the loop has nothing else to do. Two loops share the work:
// untilLines handles the lines' and the heap's events while one of them
// comes next, and when a new person or a service ending does, notes the
// earliest of them as soonest; untilSoonest then handles new people and
// services ending, most of a run's events, while they come before soonest,
// with two comparisons each. While a trace listens, untilLines tells it of
// each of its events, and handleOwnTraced takes the new people and the
// services ending one at a time.
func (e *engine) until() int64 {
	for {
		if at, stopped := e.untilLines(); stopped {
			return at
		}
		if e.trace != nil {
			e.handleOwnTraced()
		} else {
			e.untilSoonest()
		}
	}
}

// untilLines handles the earliest of the lines' fronts and the heap's top
// while it comes before the next arrival and the services' top. It returns
// the next event's time with stopped true when that is at or after e.stop;
// otherwise the next is a new person or a service ending, and it notes the
// earliest of the lines and the heap as soonest. A trace hears each event
// it handles.
func (e *engine) untilLines() (at int64, stopped bool) {
	for {
		// the lines' fronts' and the heap's top's earliest: after every
		// time and seq when all are empty
		lineAt, lineSeq, from := int64(math.MaxInt64), uint64(math.MaxUint64), fromHeap
		if e.timeouts.n > 0 {
			f := &e.timeouts.buf[e.timeouts.head]
			lineAt, lineSeq, from = f.at, f.seq, fromTimeouts
		}
		if e.refusing.n|e.retryLine.n > 0 { // one test when both are empty
			if e.refusing.n > 0 {
				if f := &e.refusing.buf[e.refusing.head]; f.before(lineAt, lineSeq) {
					lineAt, lineSeq, from = f.at, f.seq, fromRefusing
				}
			}
			if e.retryLine.n > 0 {
				if f := &e.retryLine.buf[e.retryLine.head]; f.before(lineAt, lineSeq) {
					lineAt, lineSeq, from = f.at, f.seq, fromRetryLine
				}
			}
		}
		if e.events.n > 0 {
			if f := &e.events.buf[0]; f.before(lineAt, lineSeq) {
				lineAt, lineSeq, from = f.at, f.seq, fromHeap
			}
		}
		at, seq, _ := e.nextOwn()
		if !comesBefore(lineAt, lineSeq, at, seq) {
			if at >= e.stop {
				return at, true
			}
			e.soonest, e.soonestFrom = event{at: lineAt, seq: lineSeq}, from
			return at, false
		}
		if lineAt >= e.stop {
			return lineAt, true
		}
		e.advance(lineAt)
		if e.trace != nil {
			e.traceNext(from)
		}
		e.handleLine(from)
	}
}

// untilSoonest handles new people and services ending while the earlier
// of the next arrival and the services' top comes before soonest, the
// earliest event of the lines and the heap, and before e.stop.
func (e *engine) untilSoonest() {
	for {
		if e.services.n > 0 && e.services.buf[0].before(e.arrival, e.arrSeq) {
			if !e.advanceTo(e.services.buf[0].at, e.services.buf[0].seq) {
				return
			}
			e.endService()
		} else {
			if !e.advanceTo(e.arrival, e.arrSeq) {
				return
			}
			e.newPerson()
		}
	}
}

// advanceTo moves the clock to at, the time of an arrival or a service
// ending whose seq is seq, if it comes before soonest and e.stop, and says
// whether it did.
func (e *engine) advanceTo(at int64, seq uint64) bool {
	if e.soonest.before(at, seq) || at >= e.stop {
		return false
	}
	e.now = at
	return true
}

// nextOwn is the earlier of the next arrival and the services' top: its
// time, seq and where it is (fromArrivals or fromServices).
func (e *engine) nextOwn() (at int64, seq uint64, from int) {
	if e.services.n > 0 && e.services.buf[0].before(e.arrival, e.arrSeq) {
		return e.services.buf[0].at, e.services.buf[0].seq, fromServices
	}
	return e.arrival, e.arrSeq, fromArrivals
}

// advance moves the clock to at, the next event's time. It is small
// enough to inline; the broken invariant's panic is a call of its own.
func (e *engine) advance(at int64) {
	if at < e.now {
		timeWentBackwards(e.now, at)
	}
	e.now = at
}

// timeWentBackwards panics: an event came due before the one just handled,
// from and to ns, which the loop's order of events rules out.
func timeWentBackwards(from, to int64) {
	panic("sim: time went backwards, from " + strconv.FormatInt(from, 10) + " to " + strconv.FormatInt(to, 10) + " ns")
}

// handleOwnTraced handles the next arrival or service ending, which
// untilLines has found to come next, telling the trace first.
func (e *engine) handleOwnTraced() {
	at, _, next := e.nextOwn()
	e.advance(at)
	e.traceNext(next)
	if next == fromServices {
		e.endService()
	} else {
		e.newPerson()
	}
}

// handleLine handles the front of the line next names, or the heap's top.
func (e *engine) handleLine(next int) {
	switch next {
	case fromTimeouts:
		// Cancelled timeouts come in runs: after one, the others now at
		// the line's front go at once (dropCancelledTimeouts).
		if e.giveUp(e.timeouts.popFront().a) && e.trace == nil {
			e.dropCancelledTimeouts()
		}
	case fromRefusing:
		e.finishRefusal(e.refusing.popFront().a)
	case fromRetryLine:
		e.send(e.retryLine.popFront().a)
	default:
		ev := e.events.buf[0]
		e.events.pop()
		switch ev.kind {
		case retryArrival:
			e.send(ev.a)
		case limitTimer:
			e.lim.timer(e, ev)
		case timeoutDue: // a proxy's try (chain.go)
			e.giveUp(ev.a)
		default:
			e.incident(ev.kind)
		}
	}
}

// dropCancelledTimeouts lets go, ahead of their time, of the timeouts at
// the line's front whose clients have heard back already: a timeout whose
// attempt was answered or refused does nothing but release it (giveUp),
// and under lifo and priority almost every timeout is one (a request waits
// less than its client's timeout), so handling them one by one as events
// would cost the loop a choice of the next event each. A trace (tests
// only) hears every timeout at its own time instead.
func (e *engine) dropCancelledTimeouts() {
	for e.timeouts.n > 0 {
		i := e.timeouts.front().a
		a := e.at(i)
		if !a.replied {
			return
		}
		e.timeouts.popFront()
		e.release(i, a)
	}
}

// due notes ev, just added to the line or the heap from names, as the
// soonest of their events if it comes before the soonest so far.
func (e *engine) due(ev event, from int) {
	if ev.before(e.soonest.at, e.soonest.seq) {
		e.soonest, e.soonestFrom = ev, from
	}
}

// traceNext tells trace about the event loop is about to handle: a new
// person (whose attempt does not exist yet), a timeout, or the next event
// of a line or the heap.
func (e *engine) traceNext(next int) {
	var ev event
	switch next {
	case fromArrivals:
		e.trace(e.now, "arrival", nil)
		return
	case fromTimeouts:
		e.trace(e.now, "timeout", e.at(e.timeouts.front().a))
		return
	case fromRefusing:
		ev = e.refusing.front()
	case fromRetryLine:
		ev = e.retryLine.front()
	case fromServices:
		ev = e.services.buf[0]
	default:
		ev = e.events.buf[0]
	}
	if ev.kind >= lossStarts {
		e.trace(e.now, [...]string{"loss starts", "loss ends", "limit timer"}[ev.kind-lossStarts], nil)
		return
	}
	e.trace(e.now, [...]string{"service done", "refusal done", "retry", "try timeout"}[ev.kind], e.at(ev.a))
}

// newPerson handles a new person's first attempt (rule 2).
func (e *engine) newPerson() {
	i := e.alloc()
	a := e.at(i)
	a.first = e.now
	a.try = 1
	a.refs = 1 // the sender; arrive passes it on to the system
	a.order = e.comesToOrder()
	a.window = int16(e.now / windowNS)
	e.windows[a.window].People++
	a.sale = e.inSale(a)
	if a.sale {
		e.sale.People++
		if a.order {
			e.sale.Orders++
		}
	}
	e.scheduleArrival(e.now)
	if c := e.cfg.Client; c == Ratio || c == Throttle { // send does more than arrive
		e.send(i)
	} else {
		e.arrive(i, a)
	}
}

// arrive admits, queues or refuses attempt i (a) as the policy says, then
// puts idle workers to work.
func (e *engine) arrive(i id, a *attempt) {
	a.t0 = e.now
	a.deadline = e.now + e.timeout
	if e.patient {
		if p, first := e.patienceNS(); first {
			a.deadline = e.now + p
		}
	}
	// a.refs is 1 already: the sender's hold passes to the system
	if e.proxy != nil { // a try a proxy sends (rule 41)
		e.tryTimeout(i, a)
	} else if !e.final(a) && !e.gaveUp(a) {
		// Only an attempt that may be followed by a retry needs its timeout
		// as an event: that is when the retry is decided (rule 13). One
		// whose person gives up first is followed by none (rule 4a), so
		// the line holds only deadlines t0 + timeout, in the order made.
		a.refs++
		ev := event{at: e.deadline(a), seq: nextSeq(&e.timeoutSeq), a: i, kind: timeoutDue}
		e.timeouts.pushBack(ev)
		e.due(ev, fromTimeouts)
	}
	if a.try > 1 {
		e.retriesSent++
	}
	e.windows[a.window].Attempts++
	if a.sale {
		e.saleAttempts++
	}
	switch e.admitRule {
	case admitBound:
		if e.queue.len() >= e.bound {
			e.refuse(i, a)
			e.dispatch()
			return
		}
	case admitPriority:
		if e.queue.len() >= e.bound {
			if !a.order || e.queue.previews.n == 0 {
				e.refuse(i, a)
				e.dispatch()
				return
			}
			p := e.queue.previews.popBack() // the newest preview makes room (rule 11)
			pa := e.at(p)
			e.noteQueueWait(pa)
			e.refuse(p, pa)
		}
	case admitLimit:
		if !e.lim.admit(i, a) {
			e.refuse(i, a)
			e.dispatch()
			return
		}
	case admitCoDel:
		// Fail at Scale's onNewRequest, decided now from the queue as this
		// request finds it (rule 9).
		if e.queue.len() == 0 {
			e.lastEmpty = e.now
		}
		a.tight = e.now-e.lastEmpty > e.codelInterval
	}
	switch {
	case e.free == 0: // every worker is busy: it waits
		e.queueSeq++
		a.seq = e.queueSeq
		e.queue.push(i, a.order)
	case e.queue.len()|e.refusals.n == 0:
		// Straight to an idle worker: the queue would hand it over at
		// once, having waited no time, so over no limit (rule 9; the
		// limits are at least 0), though its client may have given up
		// already (rule 7: a patience under half a nanosecond).
		if e.shedRule == shedAbandoned && e.gone(a) {
			e.shed(i, a)
		} else {
			e.serve(i, a)
		}
		return
	default:
		e.queueSeq++
		a.seq = e.queueSeq
		e.queue.push(i, a.order)
		e.startWork()
	}
	// Only what is still waiting once idle workers have taken their share.
	if n := e.queue.len(); n > e.longestQueue {
		e.longestQueue = n
	}
}

// dispatch gives idle workers work: pending refusals first, then the queue
// (rule 5). It is small enough to inline, so the common cases of an
// arrival that finds every worker busy and of a worker that finishes with
// nothing waiting cost a few comparisons, not a call.
func (e *engine) dispatch() {
	if e.free > 0 && e.queue.previews.n|e.queue.orders.n|e.refusals.n != 0 {
		e.startWork()
	}
}

// startWork is dispatch's loop: while a worker is idle and there is work.
func (e *engine) startWork() {
	for e.free > 0 {
		if e.refusals.n > 0 {
			i := e.refusals.popFront()
			e.free--
			done := e.now + e.refusalCost
			e.refusingNS += min(done, e.end) - e.now
			if during := min(done, e.peopleEnd) - max(e.now, e.peopleStart); during > 0 {
				e.saleRefusingNS += during
			}
			ev := event{at: done, seq: nextSeq(&e.serviceSeq), a: i, kind: refusalDone}
			e.refusing.pushBack(ev)
			e.due(ev, fromRefusing)
			continue
		}
		if e.queue.len() == 0 {
			return
		}
		var i id
		switch {
		case e.takeRule == takeNewestCrowded && e.now-e.lastEmpty > e.codelInterval:
			i = e.queue.popNewest(e.pool) // adaptive LIFO (rule 10)
		case !e.queue.split:
			i = e.queue.previews.popFront() // the oldest of one line
		default:
			i = e.queue.popOldestOfTwo(e.pool)
		}
		a := e.at(i)
		e.noteQueueWait(a)
		if e.pickup && e.sheds(a) {
			e.shed(i, a)
			continue
		}
		e.serve(i, a)
	}
}

// sheds reports whether the policy drops or refuses a, which a worker has
// just picked up, rather than serve it: skip the abandoned (rule 7), or a
// request over its limit (rule 9).
func (e *engine) sheds(a *attempt) bool {
	switch e.shedRule {
	case shedAbandoned:
		return e.gone(a)
	case shedOverLimit:
		return e.now-a.t0 > e.limit(a)
	}
	return false
}

// shed drops or refuses attempt i (a), which the policy sheds: silently
// when its client has gone, since nobody is listening for a reply.
func (e *engine) shed(i id, a *attempt) {
	if e.lim != nil { // skipped behind a limit: its client cancelled it, which the libraries ignore
		e.lim.leave(e, i, a, false, true)
	}
	if e.shedRule == shedAbandoned || e.gone(a) {
		e.lost(a)
		e.release(i, a)
		return
	}
	e.refuse(i, a)
}

// serve is an idle worker starting on attempt i (a).
func (e *engine) serve(i id, a *attempt) {
	e.free--
	if a.sale {
		e.noteServed(e.now - a.t0)
	}
	// Drawn when a worker starts it, from its own stream (rule 3), then
	// stretched by the incidents (rule 23). The post's exponential is
	// serviceNS's draw with the ziggurat's first try inlined, as
	// scheduleArrival draws a gap, rather than a call.
	var d float64
	if e.draw.exponential {
		x, j, ok := e.service.expLayer()
		if !ok {
			x = e.service.expBeyond(j)
		}
		d = float64(e.draw.mean * x)
	} else {
		d = e.serviceNS()
	}
	if e.incidents {
		d = e.stretch(a, d)
	}
	d += 0.5
	if d > e.endF {
		d = e.endF
	}
	done := e.now + int64(d)
	if done >= e.deadline(a) { // the timeout, scheduled first, fires first
		e.wastedNS += min(done, e.end) - e.now
	} else {
		e.usefulNS += min(done, e.end) - e.now
	}
	// A worker finishing one request and starting the next replaces the
	// services' top.
	ev := event{at: done, seq: nextSeq(&e.serviceSeq), a: i, kind: serviceDone}
	if e.finishing {
		e.finishing = false
		e.services.replaceTop(ev)
	} else {
		e.services.push(ev)
	}
}

// noteServed counts a sale attempt taken into service after waiting w ns
// in the queue (Sale.WaitedShare, Sale.MeanWaitMS, Sale.P99QueueWaitMS).
func (m *measures) noteServed(w int64) {
	m.queueWaits.add(w)
	if w > 0 {
		m.saleWaited++
		var carry uint64
		m.saleWaitLo, carry = bits.Add64(m.saleWaitLo, uint64(w), 0)
		m.saleWaitHi += carry
	}
}

func (e *engine) noteQueueWait(a *attempt) {
	if w := e.now - a.t0; w > e.longestWait {
		e.longestWait = w
	}
}

// refuse says no to attempt i (a): at once when refusing is free, else
// after a worker has spent the refusal cost on it (rule 12).
func (e *engine) refuse(i id, a *attempt) {
	if e.refusalCost == 0 {
		e.sayNo(i, a)
		return
	}
	e.refusals.pushBack(i)
}

func (e *engine) finishRefusal(i id) {
	e.workerDone()
	e.sayNo(i, e.at(i))
	e.dispatch()
}

// workerDone is a worker done refusing, or done with a call it waited on
// (chain.go): it goes now if a capacity loss is owed one (rule 22), and
// is free otherwise.
func (e *engine) workerDone() {
	if e.owed > 0 {
		e.owed--
		e.down++
		e.goneNS += e.end - e.now
	} else {
		e.free++
	}
}

// sayNo delivers a refusal to attempt i's (a's) client, who hears it
// unless it has left (rule 13), and lets go of the attempt.
func (e *engine) sayNo(i id, a *attempt) {
	if e.gone(a) { // a client that has left hears nothing
		e.lost(a)
	} else {
		e.hear(a)
	}
	e.release(i, a)
}

// hear is attempt a's client hearing "no" (rule 13).
func (e *engine) hear(a *attempt) {
	a.replied = true
	e.retryOrSettle(a, refused)
}

// giveUp is attempt i's client giving up, at its deadline, unless it was
// answered or refused first (rule 4): then its timeout was cancelled, and
// giveUp says so.
func (e *engine) giveUp(i id) (cancelled bool) {
	a := e.at(i)
	cancelled = a.replied
	if !cancelled {
		e.retryOrSettle(a, timedOut)
	}
	e.release(i, a)
	return cancelled
}

// endService handles the services' top ending, now: its worker is free,
// and its client hears the answer unless it has gone (rule 4). A request
// answered settles its person: count's case answered, by the sale flag the
// attempt carries.
func (e *engine) endService() {
	if e.chained {
		e.endChained()
		return
	}
	i := e.services.buf[0].a
	e.free++
	a := e.at(i)
	if e.gone(a) {
		e.wasted++ // served to nobody (rule 4)
		e.lost(a)
	} else {
		a.replied = true
		e.accepted(a)
		e.windows[a.window].Answered++
		if a.sale {
			e.sale.Answered++
			if a.order {
				e.sale.OrdersAnswered++
			}
			e.waits.add(e.now - a.first)
		}
	}
	if e.lim != nil {
		e.lim.leave(e, i, a, false, false)
	}
	e.release(i, a)
	e.finishing = true // the first service to start takes its worker
	e.dispatch()
	if e.finishing { // none did
		e.finishing = false
		e.services.pop()
	}
}

// waiting is how many requests wait in the queue now.
func (e *engine) waiting() int {
	if e.picking {
		return e.pick.n
	}
	return e.queue.len()
}

// oldestWaiting is when the request in the queue that has waited longest
// arrived, ns, and false if none waits.
func (e *engine) oldestWaiting() (t0 int64, ok bool) {
	if e.picking {
		return e.pick.oldest()
	}
	if e.queue.len() == 0 {
		return 0, false
	}
	return e.at(e.queue.oldest(e.pool)).t0, true
}

// caught is how a person's last attempt, its client's deadline at
// deadline (ns), ends when the run's end catches it unanswered: expired,
// if its deadline came before the end; unfinished otherwise (a timeout at
// the end itself is not processed).
func (e *engine) caught(deadline int64, expired outcome) outcome {
	if deadline < e.end {
		return expired
	}
	return unfinished
}

// settle records how a person ended, by their last attempt (rule 14).
func (e *engine) settle(a *attempt, o outcome, waitNS int64) {
	e.count(&e.windows[a.window], e.inSale(a), a.order, o, waitNS)
	if e.upstream != nil {
		e.callEnded(a, o)
	}
}

// count records a person who ended with o, in their window w, and in the
// sale's counts if they first arrived in the sale (sale), with their wait
// if answered (rule 16).
func (e *engine) count(w *Window, sale, order bool, o outcome, waitNS int64) {
	switch o {
	case answered:
		w.Answered++
	case refused:
		w.Refused++
	case timedOut:
		w.TimedOut++
	case unfinished:
		w.Unfinished++
	case gaveUp:
		w.TimedOut++
		w.GaveUp++
	}
	if !sale {
		return
	}
	switch o {
	case answered:
		e.sale.Answered++
		if order {
			e.sale.OrdersAnswered++
		}
		e.waits.add(waitNS)
	case refused:
		e.sale.Refused++
	case timedOut:
		e.sale.TimedOut++
	case unfinished:
		e.sale.Unfinished++
	case gaveUp:
		e.sale.TimedOut++
		e.sale.GaveUp++
	}
}

// result settles the people the run's end caught in flight and summarises.
func (e *engine) result() Result {
	c := e.cfg
	e.now = e.end
	var series *Series
	if e.series != nil { // before the queue's waits at the end are noted: its last step notes them
		series = e.finishSeries()
	}
	// Attempts that may still retry are in the timeout line; last attempts
	// still in the service are found where they wait or are served.
	for k := 0; k < e.timeouts.n; k++ {
		if a := e.at(e.timeouts.at(k).a); !a.replied {
			e.settle(a, unfinished, 0)
		}
	}
	caught := func(i id) {
		if e.proxy != nil { // its try's timeout is still to come: below
			return
		}
		if a := e.at(i); e.final(a) || e.gaveUp(a) {
			e.settle(a, e.caught(e.deadline(a), e.expired(a)), 0)
		}
	}
	for _, line := range []*ring[id]{&e.queue.previews, &e.queue.orders, &e.refusals} {
		for k := 0; k < line.n; k++ {
			caught(line.at(k))
		}
	}
	pending := func(ev event) {
		switch ev.kind {
		case serviceDone, refusalDone:
			caught(ev.a)
		case retryArrival:
			o := timedOut
			if e.at(ev.a).prevRefused {
				o = refused
			}
			e.settle(e.at(ev.a), o, 0)
		case timeoutDue: // a proxy's try, in flight at the end
			if a := e.at(ev.a); !a.replied {
				e.settle(a, unfinished, 0)
			}
		}
	}
	for _, h := range e.held {
		caught(h.i)
	}
	for _, ev := range e.events.buf[:e.events.n] {
		pending(ev)
	}
	for _, ev := range e.services.buf[:e.services.n] {
		pending(ev)
	}
	for _, line := range []*ring[event]{&e.refusing, &e.retryLine} {
		for k := 0; k < line.n; k++ {
			pending(line.at(k))
		}
	}
	if t0, ok := e.oldestWaiting(); ok {
		e.longestWait = max(e.longestWait, e.now-t0)
	}
	for k := 0; k < e.refusals.n; k++ {
		e.noteQueueWait(e.at(e.refusals.at(k)))
	}

	r := Result{
		ModelVersion:       ModelVersion,
		Config:             c,
		QueueBound:         e.bound,
		Wasted:             e.wasted,
		Windows:            e.windows,
		LongestQueueWaitMS: float64(e.longestWait) / 1e6,
		LongestQueue:       e.longestQueue,
		Series:             series,
		Client: ClientStats{
			Retries:        e.retriesMade,
			RetriesSent:    e.retriesSent,
			Declined:       e.retriesDeclined,
			Throttled:      e.throttled,
			TokensSpent:    e.tokensSpent,
			TokensRefilled: e.tokensRefilled,
		},
	}
	for _, w := range e.windows { // the windows cover the run: their counts are its
		r.People += w.People
		r.Attempts += w.Attempts
	}
	s := e.sale
	if s.People > 0 {
		p := float64(s.People)
		s.AnsweredShare = float64(s.Answered) / p
		s.RefusedShare = float64(s.Refused) / p
		s.TimedOutShare = float64(s.TimedOut) / p
		s.GaveUpShare = float64(s.GaveUp) / p
		r.AttemptsPerPerson = float64(e.saleAttempts) / p
	}
	if s.Orders > 0 {
		s.OrdersAnsweredShare = float64(s.OrdersAnswered) / float64(s.Orders)
	}
	if e.peopleEnd > e.peopleStart {
		s.RefusingShare = float64(e.saleRefusingNS) / float64(float64(c.Workers)*float64(e.peopleEnd-e.peopleStart))
	}
	if served := e.queueWaits.count(); served > 0 {
		s.WaitedShare = float64(e.saleWaited) / float64(served)
		sum := float64(float64(e.saleWaitHi)*0x1p64) + float64(e.saleWaitLo) // ns
		s.MeanWaitMS = sum / float64(served) / 1e6
	}
	s.MedianWaitMS = e.waits.quantileMS(0.5)
	s.P99WaitMS = e.waits.quantileMS(0.99)
	s.P99QueueWaitMS = e.queueWaits.quantileMS(0.99)
	r.Sale = s

	for i := range r.Windows {
		w := &r.Windows[i]
		w.AnsweredShare = 1
		if settled := w.People - w.Unfinished; settled > 0 {
			w.AnsweredShare = float64(w.Answered) / float64(settled)
		}
	}
	if c.HeapRequests > 0 {
		r.QueueAtEnd = e.waiting()
	}
	r.BackToNormalS = backToNormal(r.Windows, e.calm)
	switch {
	case r.BackToNormalS != nil:
		r.Recovery = Normal
	case nobodyAfter(r.Windows, e.calm):
		r.Recovery = Unmeasured
	case c.Client == Throttle && e.waiting() == 0:
		r.Recovery = Throttled
	case !c.HoldsTimeout():
		r.Recovery = Overloaded
	case c.Drains(c.Retries) && !c.CollapsedAt(r.QueueAtEnd):
		r.Recovery = Backlog
	default:
		r.Recovery = Stuck
	}

	total := int64(c.Workers) * e.end
	calling := e.callingBy(e.end)
	idle := total - e.usefulNS - e.wastedNS - e.refusingNS - e.goneNS - calling
	if idle < 0 {
		panic("sim: worker time over budget: " + strconv.FormatInt(total-idle, 10) + " ns used of " + strconv.FormatInt(total, 10))
	}
	r.WorkerTimeS = WorkerTime{
		Useful:   float64(e.usefulNS) / 1e9,
		Wasted:   float64(e.wastedNS) / 1e9,
		Refusing: float64(e.refusingNS) / 1e9,
		Idle:     float64(idle) / 1e9,
		Gone:     float64(e.goneNS) / 1e9,
		Calling:  float64(calling) / 1e9,
	}
	r.CallsMade, r.CallsFailed, r.ErrorAnswers = e.callsMade, e.callsFailed, e.errorAnswers
	r.LostInService = e.killed
	if e.lim != nil {
		r.Limit = e.lim.stats(e.end, r.Attempts, e.saleAttempts)
	}
	return r
}

// firstAfter is the index of the first window that starts at or after the
// sale's end, saleEnd ns: where rule 17 starts to look.
func firstAfter(saleEnd int64) int { return int((saleEnd + windowNS - 1) / windowNS) }

// nobodyAfter says whether no one first arrived in the windows that start
// at or after the sale's end: then rule 17 has nobody to measure.
func nobodyAfter(ws []Window, saleEnd int64) bool {
	for _, w := range ws[firstAfter(saleEnd):] {
		if w.People > 0 {
			return false
		}
	}
	return true
}

// backToNormal finds the first window starting at or after the sale's end
// from which every later window answers at least 90% of its people, and
// returns its start minus the sale's end in seconds (rule 17). People still
// in flight at the end are not counted against a window, and a window with
// nobody settled is no evidence either way: nil when no window from there on
// has anyone settled, or the last one falls short.
func backToNormal(ws []Window, saleEnd int64) *float64 {
	first := firstAfter(saleEnd)
	k := len(ws)
	evidence := false
	for k > first && ws[k-1].AnsweredShare >= 0.9 {
		evidence = evidence || ws[k-1].People > ws[k-1].Unfinished
		k--
	}
	if !evidence {
		return nil
	}
	s := float64(int64(k)*windowNS-saleEnd) / 1e9
	return &s
}
