// Package limits holds the bounds that the simulator (sim.Config.Validate)
// and the capacity planner (plan.Input.Validate) share, so that both accept
// the same rates and times, and the one way their messages write numbers.
package limits

import (
	"math"
	"strconv"
	"strings"
)

const (
	// MaxRPS is the largest arrival rate, in requests a second.
	MaxRPS = 1_000_000
	// MinServiceMS is the shortest service time, in milliseconds: one
	// microsecond.
	MinServiceMS = 0.001
	// MaxMS is the longest time in milliseconds a field may hold: one hour.
	MaxMS = 3_600_000
)

// Num formats x for a message as the reports write numbers: digits grouped
// in threes from 1,000 (3,600,000; 0.001), and exponent form for the sizes
// nobody types (1e+308, not 309 digits).
func Num(x float64) string {
	if ax := math.Abs(x); ax != 0 && (ax < 1e-4 || ax >= 1e15) {
		return strconv.FormatFloat(x, 'g', -1, 64)
	}
	return group(strconv.FormatFloat(x, 'f', -1, 64))
}

// Count formats a whole number for a message, grouped as Num groups it:
// 10,000,000.
func Count(n int64) string { return group(strconv.FormatInt(n, 10)) }

// CountU is Count for an unsigned whole number, such as a seed.
func CountU(n uint64) string { return group(strconv.FormatUint(n, 10)) }

// group puts a comma between each group of three digits of s's whole part
// ("-1234567.5" is "-1,234,567.5"); s is a number in plain digits.
func group(s string) string {
	sign := ""
	if strings.HasPrefix(s, "-") {
		sign, s = "-", s[1:]
	}
	whole, frac, hasFrac := strings.Cut(s, ".")
	var b strings.Builder
	for i := range len(whole) {
		if i > 0 && (len(whole)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteByte(whole[i])
	}
	if hasFrac {
		b.WriteString("." + frac)
	}
	return sign + b.String()
}
