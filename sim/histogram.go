package sim

import "math/bits"

// waitHistogram counts waits in microseconds in log-linear buckets, after
// HdrHistogram: exact below 2,048 µs, then 1,024 buckets for every power of
// two, so a quantile is within 1/2,048 (0.05%) of the true value. Its memory
// follows the longest wait, not the number of waits: at most 115 KB for a
// day-long wait, 45 KB for the post's 2 s ones.
type waitHistogram struct {
	counts []uint32
	groups []uint32 // the counts' sums a group of 1,024 buckets each (bucket >> groupBits)
	n      int
}

// groupBits is log2 of a group's buckets: a quantile passes whole groups
// before it looks at buckets (a default run's median passed some 12,000
// buckets one by one, 2% of its instructions under WebAssembly).
const groupBits = 10

const exactBelow = 2048 // µs

func waitBucket(us uint64) int {
	if us < exactBelow {
		return int(us)
	}
	e := bits.Len64(us) - 11 // >= 1
	sub := us >> uint(e)     // in [1024, 2048)
	return exactBelow + (e-1)*1024 + int(sub-1024)
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

func (h *waitHistogram) add(waitNS int64) {
	if waitNS < 0 {
		waitNS = 0
	}
	i := waitBucket(uint64(waitNS) / 1000)
	if i >= len(h.counts) { // grown, and its groups with it: a group for every bucket
		grown := make([]uint32, i+1+i/4)
		copy(grown, h.counts)
		h.counts = grown
		h.groups = append(h.groups, make([]uint32, (len(grown)-1)>>groupBits+1-len(h.groups))...)
	}
	h.counts[i]++
	h.groups[i>>groupBits]++
	h.n++
}

// quantileMS returns the nearest-rank q-quantile in milliseconds: the
// smallest bucket holding at least ceil(q x n) of the waits. It returns
// nil when the histogram is empty.
func (h *waitHistogram) quantileMS(q float64) *float64 {
	if h.n == 0 {
		return nil
	}
	rank := uint64(float64(q * float64(h.n)))
	if float64(rank) < q*float64(h.n) {
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
		above, keep := uint64(0), uint64(h.n)-rank
		g := len(h.groups) - 1
		for g > 0 && above+uint64(h.groups[g]) <= keep {
			above += uint64(h.groups[g])
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
		for g < len(h.groups)-1 && seen+uint64(h.groups[g]) < rank {
			seen += uint64(h.groups[g])
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
