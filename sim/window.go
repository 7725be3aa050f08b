package sim

// Counts the sending side keeps over its recent history.
const (
	sentRequests = iota // attempts the application made, sent or refused locally
	sentRetries         // retries it decided to make
	gotAccepts          // attempts the service answered
	windowCounts
)

// slidingWindow counts events over the last len(buckets) seconds, one bucket
// a second: O(1) to add, O(seconds passed) to advance, memory fixed by its
// length. The ratio and throttle clients keep their history in it.
type slidingWindow struct {
	buckets [][windowCounts]int64
	sec     int64 // the second the newest bucket is for
	sum     [windowCounts]int64
}

func newSlidingWindow(seconds int) slidingWindow {
	return slidingWindow{buckets: make([][windowCounts]int64, max(seconds, 1))}
}

// advance moves the window to the second holding now (ns), forgetting the
// buckets that fall out of it.
func (w *slidingWindow) advance(now int64) {
	s := now / 1_000_000_000
	if s <= w.sec {
		return
	}
	n := int64(len(w.buckets))
	if s-w.sec >= n {
		clear(w.buckets)
		w.sum = [windowCounts]int64{}
	} else {
		for k := w.sec + 1; k <= s; k++ {
			b := &w.buckets[k%n]
			for i := range b {
				w.sum[i] -= b[i]
			}
			*b = [windowCounts]int64{}
		}
	}
	w.sec = s
}

// add counts one event of the given kind now; advance must have been
// called for now.
func (w *slidingWindow) add(kind int) {
	w.buckets[w.sec%int64(len(w.buckets))][kind]++
	w.sum[kind]++
}
