package report_test

import (
	"math"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/shedsim/shedsim/sim"
	"github.com/shedsim/shedsim/sim/report"
)

func TestPercent(t *testing.T) {
	tests := []struct {
		share  float64
		want   string
		reason string
	}{
		{0, "0.0%", "zero keeps its decimal"},
		{0.084, "8.4%", "the post's unbounded queue"},
		{0.671, "67.1%", "the post's bounded queue"},
		{1, "100.0%", "everyone"},
		{0.0005, "0.1%", "half a tenth of a point rounds up"},
		{0.00049, "0.0%", "under half a tenth of a point rounds down"},
		{0.99999, "100.0%", "rounds up to everyone"},
		{0.1234, "12.3%", "one decimal only"},
		{0.6955, "69.6%", "rounds half away from zero, not to even"},
	}
	for _, tt := range tests {
		assert.Equal(t, tt.want, report.Percent(tt.share), "Percent(%v): %s", tt.share, tt.reason)
	}
}

func TestCount(t *testing.T) {
	tests := []struct {
		n      int
		want   string
		reason string
	}{
		{0, "0", "zero"},
		{7, "7", "one digit"},
		{999, "999", "three digits need no separator"},
		{1000, "1,000", "four digits get one"},
		{1024, "1,024", "Envoy's bound"},
		{14309, "14,309", "the post's wasted work"},
		{100000, "100,000", "six digits, one separator"},
		{1234567, "1,234,567", "two separators"},
		{-5, "-5", "a small negative"},
		{-999, "-999", "the sign is not a digit: no separator after it"},
		{-1000, "-1,000", "a negative with a separator"},
		{-1234567, "-1,234,567", "a negative with two separators"},
		{math.MinInt64, "-9,223,372,036,854,775,808", "the most negative int64 has no positive counterpart"},
		{math.MaxInt64, "9,223,372,036,854,775,807", "the largest int64"},
	}
	for _, tt := range tests {
		assert.Equal(t, tt.want, report.Count(tt.n), "Count(%d): %s", tt.n, tt.reason)
	}
}

func TestNumber(t *testing.T) {
	tests := []struct {
		x        float64
		decimals int
		want     string
		reason   string
	}{
		{162.5, 1, "162.5", "the 13 workers' capacity"},
		{162.5, 2, "162.5", "a trailing zero is dropped"},
		{100, 2, "100", "whole numbers drop the point"},
		{10.24, 2, "10.24", "Envoy's queue in seconds"},
		{10.24, 1, "10.2", "rounded to one decimal"},
		{1024, 0, "1,024", "thousands separators"},
		{1.1, 2, "1.1", "one trailing zero dropped"},
		{2.000001, 3, "2", "rounds to a whole number, point dropped"},
		{9.999, 2, "10", "rounding carries into the whole part"},
		{999.96, 1, "1,000", "rounding carries into a new separator"},
		{1234567.891, 2, "1,234,567.89", "separators in the whole part only"},
		{0.125, 2, "0.13", "half rounds away from zero"},
		{2.5, 0, "3", "half rounds away from zero, not to even"},
		{0.5, 0, "1", "half rounds up to one"},
		{1.0 / 0.9, 2, "1.11", "the ratio client's tries"},
		{77.77777777777777, 2, "77.78", "the ratio client's load"},
		{0, 2, "0", "zero"},
		{-1234.5, 1, "-1,234.5", "negatives keep separators"},
		{-0.5, 0, "-1", "negative half rounds away from zero"},
		{-2.25, 1, "-2.3", "negative rounding away from zero"},
		{-1000000, 0, "-1,000,000", "a negative million"},
	}
	for _, tt := range tests {
		assert.Equal(t, tt.want, report.Number(tt.x, tt.decimals), "Number(%v, %d): %s", tt.x, tt.decimals, tt.reason)
	}
}

// TestNumberNegativeZero fails on a bug: a negative that rounds to zero
// becomes -0 after math.Round, which strconv.FormatFloat prints as "-0".
// The fix is to add +0 after rounding in Number (x = math.Round(x*p)/p + 0,
// since -0 + 0 is +0), which also fixes Percent(-0.00001) = "-0.0%".
func TestNumberNegativeZero(t *testing.T) {
	tests := []struct {
		x        float64
		decimals int
		want     string
		reason   string
	}{
		{-0.04, 1, "0", "a negative that rounds to zero prints without a sign"},
		{-0.4, 0, "0", "a negative that rounds to zero prints without a sign"},
		{math.Copysign(0, -1), 2, "0", "negative zero itself prints without a sign"},
	}
	for _, tt := range tests {
		assert.Equal(t, tt.want, report.Number(tt.x, tt.decimals), "Number(%v, %d): %s", tt.x, tt.decimals, tt.reason)
	}
}

// TestNumberSmall: a positive number that the decimals would round to 0
// keeps two significant digits: "8 workers at 0.001 ms", not "at 0 ms".
func TestNumberSmall(t *testing.T) {
	for _, tt := range []struct {
		x        float64
		decimals int
		want     string
	}{
		{0.004, 2, "0.004"},
		{0.001, 1, "0.001"},
		{0.0123, 0, "0.012"},
		{0.00001, 2, "1e-05"},
		{0.005, 2, "0.01"},
		{0, 2, "0"},
	} {
		assert.Equal(t, tt.want, report.Number(tt.x, tt.decimals), "Number(%v, %d)", tt.x, tt.decimals)
	}
	assert.Equal(t, "0.001 ms", report.Duration(0.001), "a service time of 0.001 ms")
	assert.Equal(t, "0.04 s", report.Seconds(0.04), "a sale of 0.04 s")
}

func TestDuration(t *testing.T) {
	tests := []struct {
		ms     float64
		want   string
		reason string
	}{
		{5, "5 ms", "the queue timeout's target"},
		{2.5, "2.5 ms", "under 10 ms keeps a decimal"},
		{0, "0 ms", "zero"},
		{98, "98 ms", "the post's queue timeout median"},
		{97.6, "98 ms", "whole milliseconds from 10 ms up"},
		{550, "550 ms", "the post's bounded median"},
		{1002, "1,002 ms", "over a second but not whole: milliseconds, separated"},
		{1970, "1,970 ms", "the doc comment's example"},
		{1500, "1,500 ms", "one and a half seconds stays in milliseconds"},
		{1000, "1 s", "a whole second"},
		{2000, "2 s", "the client's timeout"},
		{3000, "3 s", "whole seconds"},
		{10000, "10 s", "ten seconds and up: seconds with one decimal, dropped when zero"},
		{10240, "10.2 s", "Envoy's 1,024 at 100/s"},
		{60000, "60 s", "a minute"},
		{159700, "159.7 s", "a long wait"},
	}
	for _, tt := range tests {
		assert.Equal(t, tt.want, report.Duration(tt.ms), "Duration(%v): %s", tt.ms, tt.reason)
	}
}

func TestMillis(t *testing.T) {
	ms := func(x float64) *float64 { return &x }
	tests := []struct {
		ms     *float64
		want   string
		reason string
	}{
		{nil, "-", "nobody was answered, so there is no wait"},
		{ms(98.4), "98 ms", "as Duration"},
		{ms(550), "550 ms", "as Duration"},
		{ms(2000), "2 s", "as Duration"},
	}
	for _, tt := range tests {
		assert.Equal(t, tt.want, report.Millis(tt.ms), tt.reason)
	}
}

func TestSeconds(t *testing.T) {
	tests := []struct {
		s      float64
		want   string
		reason string
	}{
		{0, "0 s", "at once"},
		{0.5, "0.5 s", "the automatic bound's work"},
		{10.24, "10.2 s", "Envoy's bound's work, one decimal"},
		{90, "90 s", "the post's recovery"},
		{300, "300 s", "the run"},
		{1234.56, "1,234.6 s", "separators and rounding"},
	}
	for _, tt := range tests {
		assert.Equal(t, tt.want, report.Seconds(tt.s), "Seconds(%v): %s", tt.s, tt.reason)
	}
}

func TestPolicyNoun(t *testing.T) {
	want := map[sim.Policy]string{
		sim.FIFO:     "the unbounded queue",
		sim.Skip:     "skipping the abandoned",
		sim.Bounded:  "the bounded queue",
		sim.CoDel:    "the queue timeout (CoDel)",
		sim.LIFO:     "adaptive LIFO (newest first)",
		sim.Priority: "priority for orders",
	}
	for _, p := range sim.PostPolicies { // the post's; every policy's noun is TestPolicySpecs's
		assert.Equal(t, want[p], report.PolicyNoun(p), "%v", p)
	}
}
