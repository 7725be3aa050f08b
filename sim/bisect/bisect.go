// Package bisect is the search of a goal-seek: over settings in order,
// where the goal only gets easier towards one end, the fewest
// measurements that find the edge between those that meet it and those
// that do not. sim/sweep's Seek and the advice of sim/report search with
// it; it measures nothing itself.
package bisect

import "math/bits"

// A Search is a goal-seek's search over n settings in order, by index
// from 0 to n-1, assuming the goal only gets easier towards one end (n-1
// when seeking the smallest, 0 when seeking the largest): it measures that
// end, then the other, then halves what lies between until the setting
// that meets the goal and the one that misses it are neighbours, so that
// it measures at most MostProbes(n) settings. The caller measures the
// setting Next names and says with Take whether it met the goal; Seek,
// and the advice of sim/report, search with it.
type Search struct {
	// good is the index of a setting known to meet the goal (or the end
	// assumed to), bad of one known to miss it (or the other end); next is
	// the index to measure; phase how far the search is: 0 measuring
	// good's end, 1 bad's, 2 halving, 3 done.
	good, bad, next, phase int
	// found: done, and some setting meets the goal.
	found bool
}

// New starts a search over n settings (n at least 2) for the
// smallest index that meets the goal, or with largest the largest.
func New(n int, largest bool) Search {
	b := Search{good: n - 1, bad: 0}
	if largest {
		b.good, b.bad = 0, n-1
	}
	b.next = b.good
	return b
}

// MostProbes is the most settings a Search over n settings measures:
// both ends, then a halving of what lies between.
func MostProbes(n int) int {
	if n <= 2 {
		return n
	}
	return 2 + bits.Len(uint(n-2)) // ceil(log2(n-1)), in integers
}

// Next is the index of the setting to measure, or false when done.
func (b *Search) Next() (int, bool) { return b.next, b.phase != 3 }

// Done reports whether the search is over.
func (b *Search) Done() bool { return b.phase == 3 }

// Take says whether the setting Next named met the goal, and moves on.
func (b *Search) Take(meets bool) {
	switch {
	case b.phase == 3:
		return
	case b.phase == 0 && !meets:
		b.phase = 3 // even the end that should meet it misses: none does
		return
	case b.phase == 0:
		b.next, b.phase = b.bad, 1
		return
	case b.phase == 1 && meets:
		b.good, b.found, b.phase = b.bad, true, 3 // the other end meets it too
		return
	case b.phase == 1:
	case meets:
		b.good = b.next
	default:
		b.bad = b.next
	}
	if b.good-b.bad > 1 || b.bad-b.good > 1 {
		b.next, b.phase = b.bad+(b.good-b.bad)/2, 2
		return
	}
	b.found, b.phase = true, 3
}

// Edge is what the search found, once done: at is the index of the
// answer (when found) or of the end that should have met the goal and
// missed it (when not); beside is the index one step beyond the answer,
// which misses, or -1 when there is none (nothing found, or the answer is
// the range's end).
func (b *Search) Edge() (at, beside int, found, done bool) {
	if b.phase != 3 {
		return -1, -1, false, false
	}
	if !b.found {
		return b.good, -1, false, true
	}
	if b.good == b.bad {
		return b.good, -1, true, true
	}
	return b.good, b.bad, true, true
}
