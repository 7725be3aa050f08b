package sim

import "math/bits"

// waitHistogram counts waits in microseconds in log-linear buckets, after
// HdrHistogram: exact below 2,048 µs, then 1,024 buckets for every power of
// two, so a quantile is within 1/2,048 (0.05%) of the true value. It has a
// bucket for every wait up to the run's length (size), no wait being longer
// than the run: 78 KB for the post's 300 s, 115 KB for a day.
type waitHistogram struct {
	counts []uint32
	// the counts' sums a group of 1,024 buckets each (bucket >> groupBits):
	// 55 at most, as a bucket is under 55 x 1,024 (waitBucket of 2^64 µs)
	groups [64]uint32
}

// groupBits is log2 of a group's buckets: a quantile passes whole groups
// before it looks at buckets.
const groupBits = 10

const exactBelow = 2048 // µs

// waitBucket is the bucket of a wait of us µs: us itself below 2,048 µs;
// above, with e = len(us) − 11 bits dropped, e·1,024 + us>>e, which runs
// on from 2,048 as us>>e runs over [1,024, 2,048) for each e.
func waitBucket(us uint64) int {
	e := max(bits.Len64(us)-11, 0)
	return e<<10 + int(us>>uint(e))
}

// bucketValue is the midpoint of bucket i, in µs.
func bucketValue(i int) uint64 {
	if i < exactBelow {
		return uint64(i)
	}
	e := uint((i-exactBelow)/1024 + 1)
	sub := uint64((i-exactBelow)%1024 + 1024)
	return sub<<e + (1<<e)/2
}

// size empties h and gives it a bucket for every wait up to longestNS,
// keeping its memory where it is large enough.
func (h *waitHistogram) size(longestNS int64) {
	n := waitBucket(uint64(max(longestNS, 0))/1000) + 1
	if cap(h.counts) < n {
		h.counts = make([]uint32, n)
	} else {
		h.counts = h.counts[:n]
		clear(h.counts)
	}
	h.groups = [64]uint32{}
}

// inUse is the groups that hold buckets.
func (h *waitHistogram) inUse() []uint32 {
	return h.groups[:(len(h.counts)-1)>>groupBits+1]
}

// add counts a wait of waitNS ns. A wait that is negative or longer than
// size allowed for is a bug in the engine, and panics on the index. Small
// enough for the engine's loops to take inline.
func (h *waitHistogram) add(waitNS int64) {
	i := waitBucket(uint64(waitNS) / 1000)
	h.counts[i]++
	h.groups[i>>groupBits&(len(h.groups)-1)]++ // the mask drops a bounds check: i>>groupBits < 55
}

// count is the number of waits counted: the groups' sum.
func (h *waitHistogram) count() int {
	n := 0
	for _, g := range h.groups {
		n += int(g)
	}
	return n
}

// quantileMS returns the nearest-rank q-quantile in milliseconds: the
// smallest bucket holding at least ceil(q x n) of the waits. It returns
// nil when the histogram is empty.
func (h *waitHistogram) quantileMS(q float64) *float64 {
	n := h.count()
	if n == 0 {
		return nil
	}
	rank := uint64(float64(q * float64(n)))
	if float64(rank) < q*float64(n) {
		rank++
	}
	if rank < 1 {
		rank = 1
	}
	// The smallest bucket whose count with those below reaches rank: for
	// a high quantile, found from the top, as the highest bucket whose
	// count with those above exceeds n - rank, which is the same bucket
	// and fewer to pass (a p99 sits near the longest wait).
	// Either way the whole groups before it are passed first.
	if q > 0.5 {
		above, keep := uint64(0), uint64(n)-rank
		groups := h.inUse()
		g := len(groups) - 1
		for g > 0 && above+uint64(groups[g]) <= keep {
			above += uint64(groups[g])
			g--
		}
		for i := min(len(h.counts), (g+1)<<groupBits) - 1; i >= 0; i-- {
			above += uint64(h.counts[i])
			if above > keep {
				return bucketMS(i)
			}
		}
	} else {
		var seen uint64
		g := 0
		groups := h.inUse()
		for g < len(groups)-1 && seen+uint64(groups[g]) < rank {
			seen += uint64(groups[g])
			g++
		}
		for i := g << groupBits; i < len(h.counts); i++ {
			seen += uint64(h.counts[i])
			if seen >= rank {
				return bucketMS(i)
			}
		}
	}
	panic("sim: histogram count and buckets disagree")
}

// bucketMS is bucket i's value in milliseconds.
func bucketMS(i int) *float64 {
	ms := float64(bucketValue(i)) / 1000
	return &ms
}
