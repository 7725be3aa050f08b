package sim

import "math"

// The grid a limit is sampled on to say when it settled (rule 38): every
// 100 ms, Envoy's documented window, and a median over each second.
const (
	settleStepNS = 100_000_000
	settleBlock  = 10 // samples a second
)

// stretch is a part of the run in which a limit may settle (rule 38): the
// sale, or the time after it. The limit is sampled at start + k x
// settleStepNS for each k with a sample before stop, and each second's
// samples give a median. The limit settled at the first second from which
// every later second's median is near the last second's (near: within 10%
// of it, and at least 1 request), unless that second starts in the
// stretch's last tenth. Since the last second is known only at the end,
// the stretch keeps the seconds that could be the last one not near it:
// those whose median is above every later one's (highs, falling from the
// first) and those below every later one's (lows, rising). Each holds at
// most one second per distinct median, so its memory is bounded by the
// limit's range however long the run; each sample costs O(1), and each
// second O(1) amortized.
type stretch struct {
	start, stop int64 // ns
	last        int64 // the last sample's index; the zero stretch has none
	highs, lows []mark
	// the second being sampled: its index, and its samples so far
	second  int64
	samples [settleBlock]int
	n       int
}

// mark is one second: its index from the stretch's start, and its median.
type mark struct {
	k     int64
	limit int
}

// newStretch is the stretch [start, stop), ns; the zero one when stop is
// not after start.
func newStretch(start, stop int64) stretch {
	if stop <= start {
		return stretch{}
	}
	return stretch{start: start, stop: stop, last: (stop - start - 1) / settleStepNS}
}

// hold is the limit being v over (from, to], ns: the samples in it see v.
func (s *stretch) hold(from, to int64, v int) {
	if s.stop == 0 || to < s.start {
		return
	}
	k := int64(0) // the first sample after from
	if from >= s.start {
		k = (from-s.start)/settleStepNS + 1
	}
	for last := min((to-s.start)/settleStepNS, s.last); k <= last; k++ {
		if sec := k / settleBlock; sec != s.second {
			s.close()
			s.second = sec
		}
		s.samples[s.n] = v
		s.n++
	}
}

// close notes the second being sampled, if it has any samples: its median
// is the middle one, the lower of the two for an even count.
func (s *stretch) close() {
	x := s.samples[:s.n]
	if len(x) == 0 {
		return
	}
	for i := 1; i < len(x); i++ { // insertion sort: ten at most
		for j := i; j > 0 && x[j] < x[j-1]; j-- {
			x[j], x[j-1] = x[j-1], x[j]
		}
	}
	s.push(mark{s.second, x[(len(x)-1)/2]})
	s.n = 0
}

// push notes a second's median m.
func (s *stretch) push(m mark) {
	n := len(s.highs)
	for n > 0 && s.highs[n-1].limit <= m.limit {
		n--
	}
	s.highs = append(s.highs[:n], m)
	n = len(s.lows)
	for n > 0 && s.lows[n-1].limit >= m.limit {
		n--
	}
	s.lows = append(s.lows[:n], m)
}

// next is the first sample after t, ns; math.MaxInt64 for none.
func (s *stretch) next(t int64) int64 {
	switch {
	case s.stop == 0:
		return math.MaxInt64
	case t < s.start:
		return s.start
	}
	k := (t-s.start)/settleStepNS + 1
	if k > s.last {
		return math.MaxInt64
	}
	return s.start + k*settleStepNS
}

// settledMS is how long after start the limit settled, ms: the start of
// the second after the last one not near the last second; nil when that
// is in the stretch's last tenth, or there is no sample. Every sample
// must have been held first.
func (s *stretch) settledMS() *float64 {
	s.close()
	if len(s.highs) == 0 {
		return nil
	}
	ref := s.highs[len(s.highs)-1].limit // the last second is on top of both
	out := int64(-1)                     // the last second not near: the latest such in either list
	for _, marks := range [2][]mark{s.highs, s.lows} {
		for i := len(marks) - 1; i >= 0; i-- {
			if !near(marks[i].limit, ref) {
				out = max(out, marks[i].k)
				break
			}
		}
	}
	at := (out + 1) * settleBlock * settleStepNS
	if 10*at >= 9*(s.stop-s.start) {
		return nil
	}
	x := float64(at) / 1e6
	return &x
}

// near reports whether a limit v is within 10% of ref, and at least 1
// request (rule 38), in integers: 10 |v - ref| <= max(10, ref).
func near(v, ref int) bool {
	d := int64(v) - int64(ref)
	return 10*max(d, -d) <= max(10, int64(ref))
}
