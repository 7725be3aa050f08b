package sim

import "math"

// The tables the samples replay (tools/shedsim/samples/ holds them as CSV files, which
// TestSampleTables holds to these): the post's sale, a day with a morning
// ramp and a spike, and a checkout's latency histogram. Made here by
// integer arithmetic, so every platform makes the same numbers.

// PostSaleRows is the post's traffic as a rate table: 70 a second, 150
// for a minute from 60 s, then 70 again.
func PostSaleRows() []RateRow {
	return []RateRow{{0, 70}, {60, 150}, {120, 70}}
}

// DayRows is a day of a shop's traffic at five-minute steps, from
// midnight: 8 a second at night, a ramp from 06:00 to 60 a second at
// 09:00, a lunch hour of 75, an evening fall to 20 by 22:00 and to 8 by
// midnight; and at 09:00 a campaign email's spike of 140 a second for five
// minutes.
func DayRows() []RateRow {
	const step = 5 * 60 // s
	// tenths of a request a second, linear from a at i0 to b at i1, steps i
	line := func(i, i0, i1, a, b int) int { return a + (b-a)*(i-i0)/(i1-i0) }
	rows := make([]RateRow, 0, 288)
	for i := range 288 { // i steps of five minutes: hour i/12
		var r int
		switch h := i / 12; {
		case h < 6:
			r = 80
		case h < 9:
			r = line(i, 72, 108, 80, 600)
		case i == 108:
			r = 1400 // 09:00 to 09:05
		case h == 12:
			r = 750
		case h < 18:
			r = 600
		case h < 22:
			r = line(i, 216, 264, 600, 200)
		default:
			r = line(i, 264, 288, 200, 80)
		}
		rows = append(rows, RateRow{TimeS: float64(i * step), RPS: float64(r) / 10})
	}
	return rows
}

// CheckoutBuckets is a checkout's latency histogram as Prometheus keeps
// it, bounds in ms: 120,000 requests measured at a quiet hour, from a
// log-normal service of mean 60 ms and p99 300 ms, counted at
// Prometheus's default bounds and a few more.
func CheckoutBuckets() []Bucket {
	les := []float64{5, 10, 25, 50, 75, 100, 150, 250, 500, 750, 1000, 2500, math.Inf(1)}
	counts := []float64{712, 5388, 32404, 69844, 90462, 101733, 112083, 117912, 119797, 119961, 119989, 120000, 120000}
	out := make([]Bucket, len(les))
	for i := range les {
		out[i] = Bucket{LeMS: les[i], Count: counts[i]}
	}
	return out
}
