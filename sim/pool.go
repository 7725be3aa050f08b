package sim

// id names an attempt in the engine's pool. Lines and events hold ids, not
// pointers, so that the garbage collector has nothing to trace or barrier.
type id int32

// The pool grows a block at a time, so growing never copies an attempt and
// a pointer from at stays valid.
const (
	blockBits = 10
	blockSize = 1 << blockBits
)

// alloc returns a fresh attempt's id, reusing a released one if it can.
func (e *engine) alloc() id {
	if n := len(e.spare); n > 0 {
		i := e.spare[n-1]
		e.spare = e.spare[:n-1]
		return i
	}
	if e.used == len(e.pool)*blockSize {
		e.pool = append(e.pool, new(block))
	}
	e.used++
	return id(e.used - 1)
}

// pool is every attempt in flight, by id, in blocks of blockSize. A block
// is an array, not a slice, so that finding an attempt in it needs no
// bounds check; the blocks hold no pointers, so the garbage collector
// scans only the few pointers to them.
type pool []*block

type block [blockSize]attempt

// at returns the attempt named i.
func (p pool) at(i id) *attempt { return &p[i>>blockBits][i&(blockSize-1)] }

// at returns the attempt named i.
func (e *engine) at(i id) *attempt { return e.pool.at(i) }

// release drops one reference to attempt i, a (its pointer, which the
// caller has at hand: finding it again costs a lookup in the pool); the
// last one recycles it.
func (e *engine) release(i id, a *attempt) {
	a.refs--
	if a.refs == 0 {
		*a = attempt{}
		e.spare = append(e.spare, i)
	}
}

// recycle takes the memory of old, a finished engine, for e: the pool's
// blocks (cleared), the lines' and the heaps' buffers, the histogram's
// buckets. A Result never refers to any of them.
func (e *engine) recycle(old *engine) {
	for b := 0; b*blockSize < old.used; b++ {
		*old.pool[b] = block{}
	}
	e.pool, e.spare = old.pool, old.spare[:0]
	e.timeouts = ring[event]{buf: old.timeouts.buf}
	e.refusals = ring[id]{buf: old.refusals.buf}
	e.queue.previews = ring[id]{buf: old.queue.previews.buf}
	e.queue.orders = ring[id]{buf: old.queue.orders.buf}
	e.events = eventHeap{buf: old.events.buf}
	e.services = eventHeap{buf: old.services.buf}
	e.refusing = ring[event]{buf: old.refusing.buf}
	e.retryLine = ring[event]{buf: old.retryLine.buf}
	e.lines, e.pick = old.lines, old.pick
	e.waits, e.queueWaits = old.waits, old.queueWaits
}
