package bisect

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestMostProbes: both ends, then ceil(log2(n-1)) settings between.
func TestMostProbes(t *testing.T) {
	tests := []struct {
		n, want int
		reason  string
	}{
		{1, 1, "one setting: itself"},
		{2, 2, "two: both ends, nothing between"},
		{3, 3, "three: the middle too"},
		{5, 4, "five: the ends, then two halvings of the three between"},
		{9, 5, "nine: 2 + ceil(log2 8)"},
		{10, 6, "ten: 2 + ceil(log2 9)"},
		{40, 8, "forty: 2 + ceil(log2 39)"},
	}
	for _, tc := range tests {
		assert.Equal(t, tc.want, MostProbes(tc.n), tc.reason)
	}
}

// TestSearchFindsTheEdge runs the search against settings whose goal flips at a
// known index, for every flip in small ranges both ways, and checks that
// it names that edge with the neighbour that misses, measures each setting
// at most once and at most MostProbes of them.
func TestSearchFindsTheEdge(t *testing.T) {
	for _, largest := range []bool{false, true} {
		for n := 2; n <= 40; n++ {
			// flip is the edge: smallest, indices >= flip meet; largest,
			// indices <= flip meet. flip -1 or n: all or none meet.
			for flip := -1; flip <= n; flip++ {
				meets := func(i int) bool { return i >= flip }
				if largest {
					meets = func(i int) bool { return i <= flip }
				}
				b := New(n, largest)
				seen := map[int]bool{}
				for i, more := b.Next(); more; i, more = b.Next() {
					require.False(t, seen[i], "n %d, flip %d, largest %v: %d measured twice", n, flip, largest, i)
					seen[i] = true
					b.Take(meets(i))
				}
				require.LessOrEqual(t, len(seen), MostProbes(n), "n %d: bisection, not a scan", n)
				at, beside, found, done := b.Edge()
				require.True(t, done)
				want := min(max(flip, 0), n) // the smallest that meets
				noneMeets, endMeets := flip >= n, flip <= 0
				if largest {
					want, noneMeets, endMeets = min(flip, n-1), flip < 0, flip >= n-1
				}
				switch {
				case noneMeets:
					assert.False(t, found, "n %d, flip %d, largest %v: none meets", n, flip, largest)
					assert.True(t, seen[at] && !meets(at), "the end that should have met it, measured")
				case endMeets:
					assert.True(t, found && at == want && beside == -1, "n %d, flip %d, largest %v: the far end, %d, meets: got %d, %d", n, flip, largest, want, at, beside)
				default:
					assert.True(t, found && at == want, "n %d, flip %d, largest %v: the edge %d, got %d", n, flip, largest, want, at)
					step := -1
					if largest {
						step = 1
					}
					assert.Equal(t, want+step, beside, "one step beyond, which misses")
					assert.True(t, seen[at] && seen[beside], "both measured")
				}
			}
		}
	}
}
