package sim

import "math"

// MaxSeriesPoints is the most points a run's series may hold (Validate
// refuses a SeriesStepS that would make more): an hour at 1 s. A point is
// about 100 bytes, and under 200 in JSON.
const MaxSeriesPoints = 3600

// seriesPoints is how many points SeriesStep keeps a run to: 300 for the
// shop's 300 s run, 360 for an hour, 288 for a day.
const seriesPoints = 360

// seriesSteps are the steps SeriesStep chooses from, in seconds.
var seriesSteps = []float64{1, 2, 5, 10, 15, 20, 30, 60, 120, 300, 600}

// SeriesStep is the step, in seconds, that the command line's --series and
// the page ask for: the smallest of 1, 2, 5, 10, 15, 20, 30, 60, 120, 300
// and 600 s that keeps a run of durationS seconds to at most 360 points (1 s
// for the shop's 300 s, 10 s for an hour, 300 s for a day, the longest run).
func SeriesStep(durationS float64) float64 {
	for _, s := range seriesSteps {
		if math.Ceil(durationS/s) <= seriesPoints {
			return s
		}
	}
	return seriesSteps[len(seriesSteps)-1]
}

// Series is a run's time series: what the service did in each step of
// StepS seconds, from the run's start to its end (Config.SeriesStepS).
// Every step is StepS long but the last, which ends with the run.
//
// Counts are of events in the step: an attempt counts in the step it
// arrives in, a completion in the step it finishes in. Over the steps they
// add up to the Result's: FirstAttempts + Retries to Attempts, Completed -
// Answered to Wasted, and Answered to the people answered over the whole
// run; and the worker time to Result.WorkerTimeS.
type Series struct {
	// StepS is the step, in seconds.
	StepS float64 `json:"step_s"`
	// CapacityRPS is the most requests a second the workers can finish on
	// average, Workers / ServiceMS (Config.CapacityRPS), to draw the
	// attempts against.
	CapacityRPS float64 `json:"capacity_rps"`
	// Points are the steps, in order.
	Points []SeriesPoint `json:"points"`
}

// SeriesPoint is one step of a Series.
type SeriesPoint struct {
	// StartS is when the step starts, in seconds from the run's start.
	StartS float64 `json:"start_s"`
	// Queue is the most requests that waited at once during the step, not
	// counting those in service (Result.LongestQueue is the most over the
	// run).
	Queue int `json:"queue"`
	// OldestWaitMS is the longest any request in the queue had waited at
	// any moment of the step, in milliseconds: the oldest one's wait when it
	// was taken, dropped or refused during the step, or at the step's end
	// if it was still waiting then. The most over the run is
	// Result.LongestQueueWaitMS, unless a refusal's work was waiting longer
	// (which Result.LongestQueueWaitMS counts at the run's end).
	OldestWaitMS float64 `json:"oldest_wait_ms"`
	// BusyUseful, BusyWasted and BusyRefusing are the workers busy serving
	// requests answered in time, serving requests whose client gave up (or
	// that a capacity loss took, rule 22), and refusing (rule 12), on
	// average over the step: worker-seconds spent in the step over the
	// step's length, so that together they are at most Workers. Over the
	// steps they add up to Result.WorkerTimeS.
	BusyUseful   float64 `json:"busy_useful"`
	BusyWasted   float64 `json:"busy_wasted"`
	BusyRefusing float64 `json:"busy_refusing"`
	// Gone is the workers a capacity loss took (rule 22), on average over
	// the step: at most Workers less the busy ones. Omitted when 0.
	Gone float64 `json:"gone,omitempty"`
	// BusyCalling is the workers held for a call downstream, in a chain
	// (rule 40), on average over the step. Omitted when 0.
	BusyCalling float64 `json:"busy_calling,omitempty"`
	// FirstAttempts and Retries are the attempts that reached the service
	// during the step: people's first attempts, and their retries.
	FirstAttempts int `json:"first_attempts"`
	Retries       int `json:"retries"`
	// Completed is the requests workers finished during the step, answered
	// in time or not (throughput); Answered is those answered in time
	// (goodput). Answered <= Completed.
	Completed int `json:"completed"`
	Answered  int `json:"answered"`
	// Limit and InFlight are an adaptive limit's state at the step's end
	// (rules 34 and on), for a policy with one: the limit, and the
	// requests in flight (admitted, queued or in service, not yet
	// finished). Both are 0, and omitted, for a policy without one; a
	// limit is at least 1.
	Limit    int `json:"limit,omitempty"`
	InFlight int `json:"in_flight,omitempty"`
}

// seriesRecorder is the engine's side of a Series: the next step's
// boundary, and the running totals at the last one, which each step
// subtracts from the engine's own. It adds nothing to the events: each
// boundary is a stop of the event loop (engine.stop).
type seriesRecorder struct {
	step, next int64 // ns
	points     []SeriesPoint
	busy       []stepBusy // each closed step's worker time, ns, made floats at the end
	// at the last boundary
	attempts, retries, wasted, answered int
	useful, wastedNS, refusing, gone    int64 // worker ns spent
	calling                             int64
	queueAtStart                        int // waiting when the step began
	// the most over the steps closed; the engine's own longestQueue and
	// longestWait then hold the current step's
	longestQueue int
	longestWait  int64
}

// stepBusy is a step's worker time by use, ns.
type stepBusy struct{ useful, wasted, refusing, gone, calling int64 }

// newSeries prepares the series of a run of end ns at step ns.
func newSeries(step, end int64) *seriesRecorder {
	n := (end + step - 1) / step
	return &seriesRecorder{
		step:   step,
		next:   min(step, end),
		points: make([]SeriesPoint, 0, n),
		busy:   make([]stepBusy, 0, n),
	}
}

// closeSteps closes every step that ends at or before t, which is before
// the run's end: the loop is about to handle an event at t.
func (e *engine) closeSteps(t int64) {
	for s := e.series; s.next <= t; {
		e.closeStep()
	}
	e.stop = min(e.end, e.series.next)
}

// closeStep records the step that ends at the series' next boundary, b:
// every event before b has been handled, none at or after it.
func (e *engine) closeStep() {
	s := e.series
	b := s.next
	start := int64(len(s.points)) * s.step

	// Worker time: the engine counts each service's or refusal's whole
	// time (up to the run's end) when it starts, so what was spent by b is
	// that less what the work in progress has still to do.
	useful, wasted, refusing := e.usefulNS, e.wastedNS, e.refusingNS
	// the pickup path counts a service's end as it starts (pickup.go):
	// what it counted of those still in service at b is not yet done
	var early, nobody int
	if e.picking {
		var u, w int64
		u, w, early, nobody = e.pick.inService(b, e.end)
		useful, wasted = useful-u, wasted-w
	}
	for _, ev := range e.services.buf[:e.services.n] {
		left := min(ev.at, e.end) - b
		if ev.at >= e.deadline(e.at(ev.a)) {
			wasted -= left
		} else {
			useful -= left
		}
	}
	servedToNobody := e.wasted - nobody
	for k := 0; k < e.refusing.n; k++ {
		refusing -= min(e.refusing.at(k).at, e.end) - b
	}
	gone := e.goneNS - int64(e.down)*(e.end-b) // the workers gone now are booked to the end

	// Attempts and answers: the windows count them by person; their sums
	// are the run's so far (windows after b's have nobody yet).
	var attempts, answered int
	for _, w := range e.windows[:min(len(e.windows), int(b/windowNS)+1)] {
		attempts += w.Attempts
		answered += w.Answered
	}
	answered -= early

	oldest := e.longestWait
	if t0, ok := e.oldestWaiting(); ok {
		oldest = max(oldest, b-t0)
	}
	p := SeriesPoint{
		StartS:        float64(start) / 1e9,
		Queue:         max(s.queueAtStart, e.longestQueue),
		OldestWaitMS:  float64(oldest) / 1e6,
		FirstAttempts: (attempts - e.retriesSent) - (s.attempts - s.retries),
		Retries:       e.retriesSent - s.retries,
		Completed:     (answered + servedToNobody) - (s.answered + s.wasted),
		Answered:      answered - s.answered,
	}
	if e.lim != nil {
		p.Limit, p.InFlight = e.lim.rule.limit(), e.lim.inFlight
	}
	s.points = append(s.points, p)
	calling := e.callingBy(b)
	s.busy = append(s.busy, stepBusy{useful - s.useful, wasted - s.wastedNS, refusing - s.refusing, gone - s.gone, calling - s.calling})
	s.calling = calling

	s.attempts, s.retries, s.wasted, s.answered = attempts, e.retriesSent, servedToNobody, answered
	s.useful, s.wastedNS, s.refusing, s.gone = useful, wasted, refusing, gone
	// The engine's longest queue and wait start again for the next step;
	// the run's are the most of the steps' (engine.result).
	s.longestQueue = max(s.longestQueue, e.longestQueue)
	s.longestWait = max(s.longestWait, e.longestWait)
	e.longestQueue, e.longestWait = 0, 0
	s.queueAtStart = e.waiting()
	s.next = min(b+s.step, e.end)
	if b == e.end {
		s.next = math.MaxInt64
	}
}

// finishSeries closes the steps left at the run's end and returns the
// series; the engine's longest queue and wait are the run's again.
func (e *engine) finishSeries() *Series {
	s := e.series
	for s.next <= e.end {
		e.closeStep()
	}
	e.longestQueue, e.longestWait = s.longestQueue, s.longestWait
	for k := range s.points {
		p, t := &s.points[k], s.busy[k]
		span := float64(min(int64(k+1)*s.step, e.end) - int64(k)*s.step)
		p.BusyUseful = float64(t.useful) / span
		p.BusyWasted = float64(t.wasted) / span
		p.BusyRefusing = float64(t.refusing) / span
		p.Gone = float64(t.gone) / span
		p.BusyCalling = float64(t.calling) / span
	}
	return &Series{
		StepS:       float64(s.step) / 1e9,
		CapacityRPS: e.cfg.CapacityRPS(),
		Points:      s.points,
	}
}

// rebook moves to wasted the worker time that a service a capacity loss
// has just taken (rule 22) spent in the steps already closed, from its
// start to the last boundary: they counted it useful, and the engine now
// counts all of it wasted (engine.kill).
func (s *seriesRecorder) rebook(start, end int64) {
	closed := min(int64(len(s.points))*s.step, end)
	if start >= closed {
		return
	}
	moved := closed - start
	s.useful -= moved
	s.wastedNS += moved
	for k := start / s.step; k < int64(len(s.busy)); k++ {
		in := min((k+1)*s.step, closed) - max(k*s.step, start)
		s.busy[k].useful -= in
		s.busy[k].wasted += in
	}
}
