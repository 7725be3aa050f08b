package sim

// ring is a double-ended queue in a growable ring buffer: push at the back,
// pop at either end, each O(1) amortised. It grows by doubling and never
// shrinks, so its memory follows the most items it ever held at once.
type ring[T any] struct {
	buf  []T
	head int
	n    int
}

// pushBack is small enough to inline; growing is a call of its own.
func (r *ring[T]) pushBack(x T) {
	if r.n == len(r.buf) {
		r.grow()
	}
	r.buf[(r.head+r.n)&(len(r.buf)-1)] = x
	r.n++
}

// grow doubles the buffer (16 to start), putting the front at index 0.
func (r *ring[T]) grow() {
	size := 2 * len(r.buf)
	if size == 0 {
		size = 16
	}
	buf := make([]T, size)
	for i := 0; i < r.n; i++ {
		buf[i] = r.buf[(r.head+i)&(len(r.buf)-1)]
	}
	r.buf, r.head = buf, 0
}

func (r *ring[T]) front() T { return r.buf[r.head] }

func (r *ring[T]) back() T { return r.buf[(r.head+r.n-1)&(len(r.buf)-1)] }

// at returns the i-th item from the front.
func (r *ring[T]) at(i int) T { return r.buf[(r.head+i)&(len(r.buf)-1)] }

// place is the i-th item from the front, to change in place.
func (r *ring[T]) place(i int) *T { return &r.buf[(r.head+i)&(len(r.buf)-1)] }

// newBack adds an item at the back and returns it, to set in place.
func (r *ring[T]) newBack() *T {
	if r.n == len(r.buf) {
		r.grow()
	}
	r.n++
	return r.place(r.n - 1)
}

// dropFront removes the k items at the front, 0 <= k <= n, without
// clearing them: for items that hold no pointers.
func (r *ring[T]) dropFront(k int) {
	r.head = (r.head + k) & (len(r.buf) - 1)
	r.n -= k
}

func (r *ring[T]) popFront() T {
	var zero T
	x := r.buf[r.head]
	r.buf[r.head] = zero
	r.head = (r.head + 1) & (len(r.buf) - 1)
	r.n--
	return x
}

func (r *ring[T]) popBack() T {
	var zero T
	i := (r.head + r.n - 1) & (len(r.buf) - 1)
	x := r.buf[i]
	r.buf[i] = zero
	r.n--
	return x
}

// queue holds the requests waiting for a worker. For the priority policy it
// keeps two lines by kind, so that the newest preview is found in O(1), and
// arrival order across both is kept by each attempt's seq; for every other
// policy everything waits in previews, one line, and no seq is compared.
type queue struct {
	previews ring[id]
	orders   ring[id]
	split    bool // two lines: orders apart from previews
}

func (q *queue) len() int { return q.previews.n + q.orders.n }

func (q *queue) push(i id, order bool) {
	line := &q.previews
	if order && q.split {
		line = &q.orders
	}
	line.pushBack(i)
}

// seq is attempt i's arrival order in the queue.
func seq(p pool, i id) uint64 { return p.at(i).seq }

// previewsFirst reports whether the oldest waiting request is a preview.
func (q *queue) previewsFirst(pool pool) bool {
	return q.orders.n == 0 || (q.previews.n > 0 && seq(pool, q.previews.front()) < seq(pool, q.orders.front()))
}

// popOldestOfTwo removes and returns the request that arrived first when
// the queue has two lines; with one, that is the line's front, which
// startWork pops itself.
func (q *queue) popOldestOfTwo(pool pool) id {
	if q.previewsFirst(pool) {
		return q.previews.popFront()
	}
	return q.orders.popFront()
}

// popNewest removes and returns the request that arrived last.
func (q *queue) popNewest(pool pool) id {
	if q.orders.n == 0 || (q.previews.n > 0 && seq(pool, q.previews.back()) > seq(pool, q.orders.back())) {
		return q.previews.popBack()
	}
	return q.orders.popBack()
}

// oldest returns the request that arrived first without removing it.
func (q *queue) oldest(pool pool) id {
	if q.previewsFirst(pool) {
		return q.previews.front()
	}
	return q.orders.front()
}

// eventKind is what happens at an event, in the heap or a line.
type eventKind uint8

const (
	serviceDone  eventKind = iota // a worker finishes serving a request
	refusalDone                   // a worker finishes refusing (rule 12)
	retryArrival                  // a client's retry arrives (rule 13)
	timeoutDue                    // a client gives up, unless answered or refused first (rule 4)
	lossStarts                    // the lost workers go (rule 22)
	lossEnds                      // they come back
	limitTimer                    // an adaptive limit's timer (limiter.go); a holds its generation
)

// event is something scheduled to happen at virtual time at (ns). Events at
// the same time happen in the order of seq: their rank (rankTimeout and
// the rest), then the order they were scheduled.
type event struct {
	at   int64
	seq  uint64
	a    id
	kind eventKind
}

func (e *event) before(at int64, seq uint64) bool { return comesBefore(e.at, e.seq, at, seq) }

// comesBefore reports whether an event at (at, seq) comes before one at
// (at2, seq2): events at the same time happen in the order of seq, their
// rank and then the order they were scheduled.
func comesBefore(at int64, seq uint64, at2 int64, seq2 uint64) bool {
	return at < at2 || (at == at2 && seq < seq2)
}

// eventHeap is a binary min-heap of events ordered by (at, seq), as
// container/heap would keep it but without its interface calls: push, pop
// and replaceTop are O(log n) in the events pending, which are at most the
// workers plus the retries waiting to be sent. Its length lives beside its
// buffer, so that popping writes an int, not a slice header (which the
// garbage collector's write barrier would see).
type eventHeap struct {
	buf []event
	n   int
}

func (h *eventHeap) push(e event) {
	if h.n == len(h.buf) {
		buf := make([]event, max(16, 2*len(h.buf)))
		copy(buf, h.buf)
		h.buf = buf
	}
	s := h.buf
	i := h.n
	h.n++
	for i > 0 { // move the hole up until e fits
		p := (i - 1) / 2
		if !e.before(s[p].at, s[p].seq) {
			break
		}
		s[i] = s[p]
		i = p
	}
	s[i] = e
}

// pop removes the earliest event; top was it.
func (h *eventHeap) pop() {
	h.n--
	if h.n > 0 {
		h.siftDown(0, h.buf[h.n])
	}
}

// replaceTop removes the earliest event and adds e, in one pass: cheaper
// than pop then push when handling an event schedules another, as a worker
// finishing one request and starting the next does.
func (h *eventHeap) replaceTop(e event) { h.siftDown(0, e) }

// siftDown puts e in the hole at index i (the root, for pop and
// replaceTop) and moves the hole down until it fits.
func (h *eventHeap) siftDown(i int, e event) {
	s := h.buf[:h.n]
	for {
		l := 2*i + 1
		if l >= len(s) {
			break
		}
		m := l
		if r := l + 1; r < len(s) && s[r].before(s[l].at, s[l].seq) {
			m = r
		}
		if !s[m].before(e.at, e.seq) {
			break
		}
		s[i] = s[m]
		i = m
	}
	s[i] = e
}

// remove takes out the event at index j and returns it: O(log n), for the
// rare event cancelled before it is due (a request lost with its worker).
func (h *eventHeap) remove(j int) event {
	ev := h.buf[j]
	h.n--
	if j == h.n {
		return ev
	}
	last := h.buf[h.n]
	// Put last in the hole at j: up if it is earlier than j's parent, else
	// down.
	s := h.buf[:h.n]
	i := j
	for i > 0 {
		p := (i - 1) / 2
		if !last.before(s[p].at, s[p].seq) {
			break
		}
		s[i] = s[p]
		i = p
	}
	if i != j {
		s[i] = last
		return ev
	}
	h.siftDown(j, last)
	return ev
}
