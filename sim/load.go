package sim

import "math"

// Latency that grows with load (MODEL.md rule 26): a second sustaining
// effect besides retries, after Bronson et al., "Metastable Failures in
// Distributed Systems" (HotOS 2021), who name garbage collection among
// them. The service keeps each waiting request in a heap that holds
// HeapRequests of them. A tracing collector's work per unit allocated is
// proportional to L / (H - L), the live data over the free space (Appel,
// "Garbage collection can be faster than stack allocation", Information
// Processing Letters 25(4), 1987; Jones, Hosking and Moss, The Garbage
// Collection Handbook, 2011, ch. 1): with the collector as costly as the
// work itself, a request served while q wait takes 1 + q / (H - q) =
// H / (H - q) times its drawn service time. So the capacity with q
// waiting is Workers / ServiceMS x (1 - q / H): past a tipping point it is
// under the normal traffic, and the queue only grows.

// maxLoadFactor is the most a full heap multiplies a service time by: a
// collector that runs all the time, not a crash.
const maxLoadFactor = 100

// loadFactor is H / (H - q), at most maxLoadFactor (from q = 0.99 H on).
func loadFactor(h float64, q int) float64 {
	free := h - float64(q)
	if free*maxLoadFactor <= h {
		return maxLoadFactor
	}
	return h / free
}

// LoadFactor is how many times as long a service takes with q requests
// waiting (rule 26): 1 without HeapRequests.
func (c Config) LoadFactor(q int) float64 {
	if c.HeapRequests == 0 {
		return 1
	}
	return loadFactor(float64(c.HeapRequests), q)
}

// CapacityAtRPS is the capacity with q requests waiting, once the
// incidents that end are over: CapacityAfterRPS / LoadFactor(q), per
// second.
func (c Config) CapacityAtRPS(q int) float64 { return c.CapacityAfterRPS() / c.LoadFactor(q) }

// TippingQueue is the fewest waiting requests at which the capacity is no
// more than the normal traffic's tries (NormalRPS x FluidTries(Retries)),
// about H (1 - load / capacity): 0 when the traffic is over the capacity
// even with an empty queue, and -1 when nothing tips it: no HeapRequests,
// no traffic, or traffic that even a full heap keeps up with.
func (c Config) TippingQueue() int {
	load := c.NormalRPS * c.FluidTries(c.Retries)
	capacity := c.CapacityAfterRPS()
	if c.HeapRequests == 0 || load <= 0 || load < capacity/maxLoadFactor {
		return -1
	}
	if load >= capacity {
		return 0
	}
	q := int(math.Ceil(float64(c.HeapRequests) * (1 - load/capacity)))
	// The division may land a request to either side: settle it on the
	// definition.
	for q > 0 && c.CollapsedAt(q-1) {
		q--
	}
	for !c.CollapsedAt(q) {
		q++
	}
	return q
}

// CollapsedAt reports whether a queue of q leaves the service collapsed
// (rule 26): with latency that grows with load, the capacity at q is no
// more than what the normal traffic sends, so the queue does not drain.
func (c Config) CollapsedAt(q int) bool {
	return c.HeapRequests > 0 && c.NormalRPS*c.FluidTries(c.Retries) >= c.CapacityAtRPS(q)
}
