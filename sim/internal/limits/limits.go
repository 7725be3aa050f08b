// Package limits holds the bounds that the simulator (sim.Config.Validate)
// and the capacity planner (plan.Input.Validate) share, so that both accept
// the same rates and times, and the one way their messages write numbers.
package limits

import (
	"math"
	"strconv"
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

// Num formats x for a message: plain digits for the sizes people type
// (3600000, 0.001), exponent form for the rest (1e+308, not 309 digits).
func Num(x float64) string {
	if ax := math.Abs(x); ax != 0 && (ax < 1e-4 || ax >= 1e15) {
		return strconv.FormatFloat(x, 'g', -1, 64)
	}
	return strconv.FormatFloat(x, 'f', -1, 64)
}
