package sim

import (
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
)

// The floor: what a default run would cost with nothing but the queueing.
//
// saleOf is c's times, ns, and rates as the engine reads them (floorRun
// computes the same in its own lines, unchanged since its figures were
// recorded): the run's end, the sale's start and end, the gaps between
// arrivals, normal and in the sale, and the mean service time.
func saleOf(c Config) (end, saleStart, saleEnd int64, normalGap, saleGap, serviceMean float64) {
	return int64(math.Round(c.DurationS * 1e9)), int64(math.Round(c.SaleStartS * 1e9)), int64(math.Round(c.SaleEndS() * 1e9)),
		1e9 / c.NormalRPS, 1e9 / c.SaleRPS, c.ServiceMS * 1e6
}

// streamsOf is the engine's streams for c's arrivals, order draws and
// service times.
func streamsOf(c Config) (arrivals, orders, service stream) {
	return newStream(c.Seed, streamArrivals), newStream(c.Seed, streamOrders), newStream(c.Seed, streamService)
}

// floorRun simulates the shop's sale under FIFO as Run does, with the same
// arrival and service streams, the same draws in the same order, a ring of
// waiting arrival times and a heap of finish times, and nothing else: no
// attempts, timeouts, outcomes, windows or histogram, and times compared as
// plain integers. It returns the workers' busy time, ns, which must equal
// the engine's useful plus wasted time (TestFloorIsTheSale), so that
// BenchmarkFloor times the same simulation as BenchmarkRunDefault minus
// everything the post's numbers are made of. It is a measuring stick for
// the speed targets, not a model: see sim/PERF.md.
func floorRun(c Config) (busyNS int64) {
	end := int64(math.Round(c.DurationS * 1e9))
	saleStart := int64(math.Round(c.SaleStartS * 1e9))
	saleEnd := int64(math.Round(c.SaleEndS() * 1e9))
	normalGap, saleGap := 1e9/c.NormalRPS, 1e9/c.SaleRPS
	serviceMean := c.ServiceMS * 1e6
	arrivals := newStream(c.Seed, streamArrivals)
	orders := newStream(c.Seed, streamOrders)
	service := newStream(c.Seed, streamService)

	// nextArrival is scheduleArrival without its edge cases.
	nextArrival := func(t int64) int64 {
		for t < end {
			gap, boundary := normalGap, int64(math.MaxInt64)
			switch {
			case t < saleStart:
				boundary = saleStart
			case t < saleEnd:
				gap, boundary = saleGap, saleEnd
			}
			d := float64(gap * arrivals.ExpFloat64())
			if d < float64(boundary-t) && d < float64(end-t) {
				return t + int64(d)
			}
			t = boundary
		}
		return math.MaxInt64
	}
	start := func(now int64) int64 { // a service starting now; its finish
		d := float64(serviceMean*service.ExpFloat64()) + 0.5
		done := now + int64(min(d, float64(end)))
		busyNS += min(done, end) - now
		return done
	}

	var waiting ring[int64]
	finish := make([]int64, 0, c.Workers) // a binary min-heap
	free := c.Workers
	arrival := nextArrival(0)
	for {
		now := arrival
		if len(finish) > 0 && finish[0] < now {
			now = finish[0]
		}
		if now >= end {
			return busyNS
		}
		if now == arrival {
			orders.Float64() // the order draw, as newPerson makes it
			arrival = nextArrival(now)
			if free == 0 {
				waiting.pushBack(now)
				continue
			}
			free--
			done := start(now)
			i := len(finish)
			finish = append(finish, done)
			for i > 0 && finish[(i-1)/2] > done {
				finish[i] = finish[(i-1)/2]
				i = (i - 1) / 2
			}
			finish[i] = done
			continue
		}
		// A worker finishes: the next waiting takes its place in the heap.
		next := finish[len(finish)-1]
		if waiting.n > 0 {
			waiting.popFront()
			next = start(now)
		} else {
			finish = finish[:len(finish)-1]
			free++
		}
		if len(finish) == 0 {
			continue
		}
		i := 0
		for {
			l := 2*i + 1
			if l >= len(finish) {
				break
			}
			m := l
			if r := l + 1; r < len(finish) && finish[r] < finish[l] {
				m = r
			}
			if finish[m] >= next {
				break
			}
			finish[i] = finish[m]
			i = m
		}
		finish[i] = next
	}
}

// tightRun is the default run's workload with no engine at all: floorRun's
// draws, in the same order, by the arrival-order recursion (arrivalorder.go)
// in one small function: each arrival starts at the later of its arrival
// and the earliest-free worker, found by a scan of the workers, and keeps
// that worker busy for its service time. It returns the workers' busy
// time, ns, which must equal the engine's (TestFloorIsTheSale), so that
// BenchmarkTightLoop is the least the workload costs where Go runs it (the
// issue's "tight Go loop"), with no outcomes, windows, timeouts or
// histogram. It knows only the default Config's shape: FIFO, no retries.
func tightRun(c Config) (busyNS int64) {
	end, saleStart, saleEnd, normalGap, saleGap, serviceMean := saleOf(c)
	arrivals, orders, service := streamsOf(c)
	free := make([]int64, c.Workers) // when each worker is next free, ns

	for t := int64(0); t < end; {
		gap, boundary := normalGap, end
		switch {
		case t < saleStart:
			boundary = saleStart
		case t < saleEnd:
			gap, boundary = saleGap, saleEnd
		}
		u, j, ok := arrivals.expLayer() // ExpFloat64, as arrivalOrder inlines it
		if !ok {
			u = arrivals.expBeyond(j)
		}
		d := float64(gap * u)
		if d >= float64(boundary-t) { // the rate changes first: draw again from there
			t = boundary
			continue
		}
		t += int64(d)
		orders.Float64() // the order draw, as newPerson makes it
		k := 0
		for i, f := range free {
			if f < free[k] {
				k = i
			}
		}
		p := max(t, free[k])
		if p >= end {
			continue // still waiting when the run ends
		}
		u, j, ok = service.expLayer()
		if !ok {
			u = service.expBeyond(j)
		}
		s := float64(serviceMean*u) + 0.5
		done := p + int64(min(s, float64(end)))
		busyNS += min(done, end) - p
		free[k] = min(done, end)
	}
	return busyNS
}

// TestFloorIsTheSale holds floorRun to simulating what Run simulates: the
// same busy time to the nanosecond over several seeds.
func TestFloorIsTheSale(t *testing.T) {
	for seed := uint64(1); seed <= 5; seed++ {
		c := DefaultConfig()
		c.Seed = seed
		r, err := Run(c)
		if err != nil {
			t.Fatal(err)
		}
		busy := r.WorkerTimeS.Useful + r.WorkerTimeS.Wasted
		assert.InDelta(t, busy, float64(floorRun(c))/1e9, 1e-9, "seed %d: the floor's busy time", seed)
		assert.InDelta(t, busy, float64(tightRun(c))/1e9, 1e-9, "seed %d: the tight loop's busy time", seed)
	}
}

// BenchmarkFloor is BenchmarkRunDefault's simulation with nothing but the
// queueing (floorRun): the least an event-driven run of the default sale
// costs on this machine.
func BenchmarkFloor(b *testing.B) {
	c := DefaultConfig()
	for b.Loop() {
		floorRun(c)
	}
}

// BenchmarkTightLoop is the default run's workload in a tight loop
// (tightRun): the floor of the workload rather than of the event-list
// method, a measuring stick for the arrival-order path natively and under
// Node (see sim/PERF.md).
func BenchmarkTightLoop(b *testing.B) {
	c := DefaultConfig()
	for b.Loop() {
		tightRun(c)
	}
}
