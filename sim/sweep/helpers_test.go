package sweep

import "math"

func nanValue() float64 { return math.NaN() }
