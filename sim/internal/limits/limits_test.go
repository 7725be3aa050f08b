package limits

import (
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestNumbersAreGrouped: every number in a message is written one way,
// digits in threes from 1,000, as the reports write counts (issue 14: "from
// 0 to 10000000" stood beside "10,000,000 attempts").
func TestNumbersAreGrouped(t *testing.T) {
	cases := []struct {
		reason string
		got    string
		want   string
	}{
		{"under a thousand is as it is", Count(999), "999"},
		{"a thousand is grouped", Count(1000), "1,000"},
		{"the budget", Count(10_000_000), "10,000,000"},
		{"zero", Count(0), "0"},
		{"a negative count", Count(-1234567), "-1,234,567"},
		{"the largest seed", CountU(1<<53 - 1), "9,007,199,254,740,991"},
		{"a rate", Num(1_000_000), "1,000,000"},
		{"a fraction keeps its digits", Num(1234.5678), "1,234.5678"},
		{"a small number", Num(0.001), "0.001"},
		{"a negative time", Num(-80), "-80"},
		{"a size nobody types", Num(1e308), "1e+308"},
		{"a tiny size", Num(1e-9), "1e-09"},
		{"not a number", Num(math.NaN()), "NaN"},
		{"an infinity", Num(math.Inf(1)), "+Inf"},
	}
	for _, tc := range cases {
		assert.Equal(t, tc.want, tc.got, tc.reason)
	}
}
