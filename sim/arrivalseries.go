package sim

import "math"

// stepTally records a run's Series on the arrival-order path
// (arrivalorder.go): the points the event loop's seriesRecorder closes at
// each boundary, but gathered in arrival order, where an attempt's whole
// life (when it joins the queue, leaves it, finishes) is known when it
// arrives. Each thing is counted in the step it happens in, as the event
// loop counts it there:
//
//   - an attempt (first or retry) in the step it arrives in;
//   - the queue's longest in a step: the most waiting after an arrival
//     there, or at the step's start;
//   - the queue's length at a boundary: the attempts that arrived before it
//     and leave the queue (taken, dropped or refused) at or after it. The
//     n-th attempt to arrive is the n-th to leave, so the times they leave
//     rise with the arrivals, and joined counts per step the attempts that
//     join the queue less those that leave it: its sums over the steps
//     before a boundary are the queue there;
//   - the oldest wait: each attempt's wait in the step it leaves the
//     queue, and at a boundary the wait of the oldest still waiting, which
//     is the first attempt to arrive before it and leave after it;
//   - a worker's time serving, split over the steps it spans, useful or
//     wasted as the event loop books it when the service starts;
//   - a completion in the step it finishes in.
//
// Every figure is an integer count or a sum of ns until finish, which makes
// them the event loop's floats: the same Series, to the bit.
type stepTally struct {
	step, end int64 // ns
	n         int   // steps
	points    []SeriesPoint
	// the step the latest attempt arrived in, and when it ends
	arrived    int
	arrivedEnd int64
	// the step the latest attempt to leave the queue left it in, and when
	// it ends
	left    int
	leftEnd int64
	// told is the first boundary (boundary k ends step k-1) whose oldest
	// waiting attempt is not yet known, and toldAt its time
	told   int
	toldAt int64

	joined []int32    // per step: attempts joining the queue less those leaving it
	oldest []int64    // per step: the longest wait, ns
	busy   [][2]int64 // per step: worker ns serving, useful [0] and wasted [1]
	// per step: services spanning it whole, useful and wasted, counted as
	// a difference (+1 at the first step spanned, -1 after the last)
	spans [][2]int32
}

// start prepares t for a run of end ns at step ns whose points are
// points (len 0, capacity for every step), taking t's memory from its last
// run.
func (t *stepTally) start(step, end int64, points []SeriesPoint) {
	n := int((end + step - 1) / step)
	*t = stepTally{
		step: step, end: end, n: n,
		points:     points[:n],
		arrived:    0,
		left:       0,
		told:       1,
		joined:     resize(t.joined, n),
		oldest:     resize(t.oldest, n),
		busy:       resize(t.busy, n),
		spans:      resize(t.spans, n+1),
		toldAt:     min(step, end),
		leftEnd:    min(step, end),
		arrivedEnd: step,
	}
}

// resize is s at length n, zeroed, reusing its memory if it has room.
func resize[T any](s []T, n int) []T {
	if cap(s) < n {
		return make([]T, n)
	}
	s = s[:n]
	clear(s)
	return s
}

// arrive counts an attempt arriving at at, a person's first or a retry.
// Attempts arrive in time order.
func (t *stepTally) arrive(at int64, first bool) {
	for at >= t.arrivedEnd {
		t.arrived++
		t.arrivedEnd += t.step
	}
	p := &t.points[t.arrived]
	if first {
		p.FirstAttempts++
	} else {
		p.Retries++
	}
}

// join counts the attempt that arrived last, at at, joining the queue,
// which then holds queue attempts (itself among them if it waits), and
// leaving it at leaves (at the run's end or after for never). Attempts
// leave in the order they arrive.
func (t *stepTally) join(at, leaves int64, queue int) {
	t.joined[t.arrived]++
	p := &t.points[t.arrived]
	p.Queue = max(p.Queue, queue)
	if leaves >= t.toldAt {
		t.tell(at, leaves)
	}
	if leaves >= t.end {
		return
	}
	for leaves >= t.leftEnd {
		t.left++
		t.leftEnd = min(t.leftEnd+t.step, t.end)
	}
	t.joined[t.left]--
	t.oldest[t.left] = max(t.oldest[t.left], leaves-at)
}

// tell records the attempt that arrived at at and leaves the queue at
// leaves as the oldest waiting at every boundary between the two that no
// attempt before it waited across: the boundaries up to at had nobody
// waiting.
func (t *stepTally) tell(at, leaves int64) {
	for t.toldAt <= leaves && t.told <= t.n {
		if t.toldAt > at {
			t.oldest[t.told-1] = max(t.oldest[t.told-1], t.toldAt-at)
		}
		t.told++
		t.toldAt = min(int64(t.told)*t.step, t.end)
	}
	if t.told > t.n {
		t.toldAt = math.MaxInt64
	}
}

// serve counts a worker serving from start, when the attempt left the
// queue (the latest to leave it), until done, or the run's end: wasted work
// if its client gives up at deadline first (as the event loop books it
// when the service starts). A service done before the run's end is a
// completion in the step it is done in, and answered if in time.
func (t *stepTally) serve(start, done, deadline int64) {
	w := b2i(done >= deadline)
	stop := min(done, t.end)
	k := t.left
	if stop <= t.leftEnd {
		t.busy[k][w] += stop - start
	} else {
		t.busy[k][w] += t.leftEnd - start
		last := int((stop - 1) / t.step)
		t.busy[last][w] += stop - int64(last)*t.step
		if last > k+1 {
			t.spans[k+1][w]++
			t.spans[last][w]--
		}
	}
	if done >= t.end {
		return
	}
	if done >= t.leftEnd {
		k = int(done / t.step)
	}
	p := &t.points[k]
	p.Completed++
	p.Answered += 1 - w
}

// finish writes the steps into s, the run's seriesRecorder, as if the event
// loop had closed every one; longestQueue and longestWait are the run's.
func (t *stepTally) finish(s *seriesRecorder, longestQueue int, longestWait int64) {
	s.points = t.points
	s.busy = s.busy[:0]
	queue, spans := 0, [2]int64{}
	for k := range t.points {
		p := &t.points[k]
		p.StartS = float64(int64(k)*t.step) / 1e9
		p.Queue = max(p.Queue, queue) // the queue at the step's start
		queue += int(t.joined[k])
		p.OldestWaitMS = float64(t.oldest[k]) / 1e6
		spans[0] += int64(t.spans[k][0])
		spans[1] += int64(t.spans[k][1])
		b := t.busy[k]
		s.busy = append(s.busy, stepBusy{useful: b[0] + spans[0]*t.step, wasted: b[1] + spans[1]*t.step})
	}
	s.next = math.MaxInt64
	s.longestQueue, s.longestWait = longestQueue, longestWait
}
