package plan

import (
	"math"
	"math/big"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// refErlang returns B(c, a) and C(c, a) from the textbook sums with
// factorials, in 256-bit big.Float arithmetic, independent of the recursion
// under test:
//
//	t_k = a^k / k!
//	B = t_c / (t_0 + ... + t_c)
//	C = t_c·c/(c−a) / (t_0 + ... + t_{c−1} + t_c·c/(c−a))   (c > a)
func refErlang(c int, a float64) (b, cw float64) {
	const prec = 256
	nf := func(x float64) *big.Float { return new(big.Float).SetPrec(prec).SetFloat64(x) }
	ba := nf(a)
	term := nf(1) // t_0
	below := nf(0)
	for k := 1; k <= c; k++ {
		below.Add(below, term) // t_0 + ... + t_{k-1}
		term.Mul(term, ba)
		term.Quo(term, nf(float64(k)))
	}
	all := new(big.Float).SetPrec(prec).Add(below, term)
	bb, _ := new(big.Float).SetPrec(prec).Quo(term, all).Float64()
	if float64(c) <= a {
		return bb, 1
	}
	scaled := new(big.Float).SetPrec(prec).Mul(term, nf(float64(c)))
	scaled.Quo(scaled, new(big.Float).SetPrec(prec).Sub(nf(float64(c)), ba))
	den := new(big.Float).SetPrec(prec).Add(below, scaled)
	cc, _ := new(big.Float).SetPrec(prec).Quo(scaled, den).Float64()
	return bb, cc
}

// TestErlangLiterature checks values printed in Erlang tables and the
// call-centre literature, to the digits they print.
func TestErlangLiterature(t *testing.T) {
	tests := []struct {
		reason string
		c      int
		a      float64
		b, cw  float64 // -1 when the source gives none
		places float64 // tolerance
	}{
		{reason: "Erlang B table: 10 servers, 10 Erlangs, 21.46% blocked", c: 10, a: 10, b: 0.2146, cw: 1, places: 5e-5},
		{reason: "Erlang B table: 5 servers, 2 Erlangs, 3.67% blocked", c: 5, a: 2, b: 0.0367, cw: -1, places: 5e-5},
		{reason: "Erlang B table: 1 server is a/(1+a)", c: 1, a: 3, b: 0.75, cw: 1, places: 1e-15},
		{reason: "10 Erlangs, 11 agents: 68.21% wait (the classic call-centre example)", c: 11, a: 10, b: -1, cw: 0.6821, places: 5e-5},
		{reason: "10 Erlangs, 12 agents: 44.94% wait", c: 12, a: 10, b: -1, cw: 0.4494, places: 5e-5},
		{reason: "10 Erlangs, 13 agents: 28.53% wait", c: 13, a: 10, b: -1, cw: 0.2853, places: 5e-5},
		{reason: "10 Erlangs, 14 agents: 17.41% wait", c: 14, a: 10, b: -1, cw: 0.1741, places: 5e-5},
		{reason: "10 Erlangs, 15 agents: 10.20% wait", c: 15, a: 10, b: -1, cw: 0.1020, places: 5e-5},
		{reason: "M/M/1: C is the utilisation", c: 1, a: 0.7, b: -1, cw: 0.7, places: 1e-15},
		{reason: "M/M/2: C = 2ρ²/(1+ρ), here ρ = 0.5 gives 1/3", c: 2, a: 1, b: -1, cw: 1.0 / 3, places: 1e-15},
	}
	for _, tt := range tests {
		t.Run(tt.reason, func(t *testing.T) {
			if tt.b >= 0 {
				assert.InDelta(t, tt.b, ErlangB(tt.c, tt.a), tt.places, "ErlangB(%d, %v); %s", tt.c, tt.a, tt.reason)
			}
			if tt.cw >= 0 {
				assert.InDelta(t, tt.cw, ErlangC(tt.c, tt.a), tt.places, "ErlangC(%d, %v); %s", tt.c, tt.a, tt.reason)
			}
		})
	}
}

// TestErlangMatchesFactorialFormula compares the recursion with the sums of
// a^k/k! in big.Float arithmetic over a grid of loads and server counts.
func TestErlangMatchesFactorialFormula(t *testing.T) {
	tests := []struct {
		reason string
		a      float64
		cs     []int
	}{
		{reason: "a light load", a: 0.3, cs: []int{1, 2, 3, 5}},
		{reason: "the planner's example, 120/s at 45 ms", a: 5.4, cs: []int{1, 5, 6, 7, 10, 11, 15, 25}},
		{reason: "the sale, 150/s at 80 ms", a: 12, cs: []int{1, 12, 13, 18, 19, 20, 30}},
		{reason: "a whole-number load, c = a exactly", a: 40, cs: []int{39, 40, 41, 50, 60}},
		{reason: "a heavy load", a: 487.25, cs: []int{400, 488, 500, 520, 560, 700}},
		{reason: "a very heavy load", a: 4000.5, cs: []int{4001, 4050, 4100, 4200}},
	}
	for _, tt := range tests {
		t.Run(tt.reason, func(t *testing.T) {
			for _, c := range tt.cs {
				wantB, wantC := refErlang(c, tt.a)
				assert.InEpsilon(t, wantB, ErlangB(c, tt.a), 1e-12, "ErlangB(%d, %v); %s", c, tt.a, tt.reason)
				assert.InEpsilon(t, wantC, ErlangC(c, tt.a), 1e-12, "ErlangC(%d, %v); %s", c, tt.a, tt.reason)
			}
		})
	}
}

func TestErlangBounds(t *testing.T) {
	loads := []float64{0, 1e-9, 0.01, 0.5, 1, 5.4, 12, 99.99, 1000, 25_000, MaxOfferedLoad}
	for _, a := range loads {
		lo := max(0, int(a)-50)
		for c := lo; c <= int(a)+200; c++ {
			b, cw := ErlangB(c, a), ErlangC(c, a)
			require.True(t, b >= 0 && b <= 1, "ErlangB(%d, %v) = %v, outside [0, 1]", c, a, b)
			require.True(t, cw >= 0 && cw <= 1, "ErlangC(%d, %v) = %v, outside [0, 1]", c, a, cw)
			require.GreaterOrEqual(t, cw, b, "ErlangC(%d, %v) below ErlangB: queueing never waits less than blocking", c, a)
		}
	}
}

// TestErlangMonotone checks that more servers never mean more waiting.
func TestErlangMonotone(t *testing.T) {
	tests := []struct {
		reason  string
		a       float64
		service float64
		limit   float64
	}{
		{reason: "the planner's example", a: 5.4, service: 45, limit: 0},
		{reason: "the sale", a: 12, service: 80, limit: 0},
		{reason: "the sale with a 100 ms limit", a: 12, service: 80, limit: 100},
		{reason: "a heavy load", a: 1234.5, service: 10, limit: 5},
	}
	for _, tt := range tests {
		t.Run(tt.reason, func(t *testing.T) {
			first := int(tt.a) + 1
			prevB, prevC := ErlangB(first-1, tt.a), 1.0
			prevW, prevMean, prevP99 := 1.0, math.Inf(1), math.Inf(1)
			for c := first; c <= first+300; c++ {
				b, cw := ErlangB(c, tt.a), ErlangC(c, tt.a)
				w := WaitOver(c, tt.a, tt.service, tt.limit)
				mean, p99 := MeanWaitMS(c, tt.a, tt.service), P99WaitMS(c, tt.a, tt.service)
				require.LessOrEqual(t, b, prevB, "ErlangB rose from %d to %d servers", c-1, c)
				require.LessOrEqual(t, cw, prevC, "ErlangC rose from %d to %d servers", c-1, c)
				require.LessOrEqual(t, w, prevW, "WaitOver rose from %d to %d servers", c-1, c)
				require.LessOrEqual(t, mean, prevMean, "MeanWaitMS rose from %d to %d servers", c-1, c)
				require.LessOrEqual(t, p99, prevP99, "P99WaitMS rose from %d to %d servers", c-1, c)
				prevB, prevC, prevW, prevMean, prevP99 = b, cw, w, mean, p99
			}
		})
	}
}

func TestErlangUnstable(t *testing.T) {
	tests := []struct {
		reason string
		c      int
		a      float64
	}{
		{reason: "c = a exactly: the servers only just keep up, so the queue random-walks without bound", c: 12, a: 12},
		{reason: "c < a: the queue grows", c: 13, a: 18.6},
		{reason: "no servers at all", c: 0, a: 3},
		{reason: "no servers and no load", c: 0, a: 0},
	}
	for _, tt := range tests {
		t.Run(tt.reason, func(t *testing.T) {
			assert.Equal(t, 1.0, ErlangC(tt.c, tt.a), "ErlangC; %s", tt.reason)
			assert.Equal(t, 1.0, WaitOver(tt.c, tt.a, 80, 100), "WaitOver; %s", tt.reason)
			assert.Equal(t, math.Inf(1), MeanWaitMS(tt.c, tt.a, 80), "MeanWaitMS; %s", tt.reason)
			assert.Equal(t, math.Inf(1), P99WaitMS(tt.c, tt.a, 80), "P99WaitMS; %s", tt.reason)
		})
	}
}

func TestErlangBadArguments(t *testing.T) {
	nan := math.NaN()
	tests := []struct {
		reason           string
		c                int
		a, service, wait float64
	}{
		{reason: "negative servers", c: -1, a: 1, service: 10, wait: 0},
		{reason: "negative load", c: 3, a: -1, service: 10, wait: 0},
		{reason: "NaN load", c: 3, a: nan, service: 10, wait: 0},
		{reason: "zero service time", c: 3, a: 1, service: 0, wait: 0},
		{reason: "NaN service time", c: 3, a: 1, service: nan, wait: 0},
		{reason: "negative limit", c: 3, a: 1, service: 10, wait: -1},
		{reason: "NaN limit", c: 3, a: 1, service: 10, wait: nan},
	}
	for _, tt := range tests {
		t.Run(tt.reason, func(t *testing.T) {
			assert.True(t, math.IsNaN(WaitOver(tt.c, tt.a, tt.service, tt.wait)), "WaitOver; %s", tt.reason)
			if tt.wait == 0 {
				assert.True(t, math.IsNaN(MeanWaitMS(tt.c, tt.a, tt.service)), "MeanWaitMS; %s", tt.reason)
				assert.True(t, math.IsNaN(P99WaitMS(tt.c, tt.a, tt.service)), "P99WaitMS; %s", tt.reason)
			}
			if tt.service == 10 && tt.wait == 0 {
				assert.True(t, math.IsNaN(ErlangB(tt.c, tt.a)), "ErlangB; %s", tt.reason)
				assert.True(t, math.IsNaN(ErlangC(tt.c, tt.a)), "ErlangC; %s", tt.reason)
			}
		})
	}
}

// TestWaitOver checks P(W > t) = C·exp(−(c − a)t/s) against the standard
// library's exponential, and that t = 0 gives ErlangC to the bit.
func TestWaitOver(t *testing.T) {
	tests := []struct {
		reason         string
		c              int
		a, service, at float64
		want           float64 // -1: only compare with the formula
	}{
		{reason: "no limit is Erlang C itself", c: 19, a: 12, service: 80, at: 0, want: ErlangC(19, 12)},
		{reason: "the sale, 14 servers, waits over 100 ms", c: 14, a: 12, service: 80, at: 100, want: 0.0395},
		{reason: "the sale, 13 servers, waits over 100 ms", c: 13, a: 12, service: 80, at: 100, want: 0.2018},
		{reason: "one mean service time with one spare server: C/e", c: 13, a: 12, service: 80, at: 80, want: -1},
		{reason: "a very long limit leaves nobody", c: 19, a: 12, service: 80, at: 3_600_000, want: 0},
		{reason: "a heavy load", c: 1300, a: 1234.5, service: 10, at: 1, want: -1},
	}
	for _, tt := range tests {
		t.Run(tt.reason, func(t *testing.T) {
			got := WaitOver(tt.c, tt.a, tt.service, tt.at)
			formula := ErlangC(tt.c, tt.a) * math.Exp(-(float64(tt.c)-tt.a)*tt.at/tt.service)
			if formula == 0 {
				assert.Zero(t, got, "WaitOver(%d, %v, %v, %v); %s", tt.c, tt.a, tt.service, tt.at, tt.reason)
			} else {
				assert.InEpsilon(t, formula, got, 1e-14, "WaitOver(%d, %v, %v, %v) = %v, formula %v; %s", tt.c, tt.a, tt.service, tt.at, got, formula, tt.reason)
			}
			if tt.want >= 0 {
				assert.InDelta(t, tt.want, got, 5e-5, "%s", tt.reason)
			}
			if tt.at == 0 {
				assert.Equal(t, math.Float64bits(ErlangC(tt.c, tt.a)), math.Float64bits(got), "at a limit of 0 WaitOver must be ErlangC to the bit")
			}
		})
	}
}

// TestP99WaitMS checks that the 99th percentile is where WaitOver falls to
// 1%, and is 0 when at most 1% wait.
func TestP99WaitMS(t *testing.T) {
	tests := []struct {
		reason     string
		c          int
		a, service float64
		want       float64 // ms, to 1e-9
	}{
		{reason: "the sale, 18 servers", c: 18, a: 12, service: 80, want: 26.974221425503032},
		{reason: "the sale, 19 servers", c: 19, a: 12, service: 80, want: 16.807751787574787},
		{reason: "the planner's example, 13 servers: 0.41% wait, so the p99 wait is 0", c: 13, a: 5.4, service: 45, want: 0},
		{reason: "M/M/1 at 90%: s·ln(90)/0.1", c: 1, a: 0.9, service: 10, want: 10 * math.Log(90) / 0.1},
	}
	for _, tt := range tests {
		t.Run(tt.reason, func(t *testing.T) {
			got := P99WaitMS(tt.c, tt.a, tt.service)
			assert.InDelta(t, tt.want, got, 1e-9, "P99WaitMS(%d, %v, %v); %s", tt.c, tt.a, tt.service, tt.reason)
			if got > 0 {
				assert.InDelta(t, 0.01, WaitOver(tt.c, tt.a, tt.service, got), 1e-14, "WaitOver at the p99 wait must be 1%%; %s", tt.reason)
			} else {
				assert.LessOrEqual(t, ErlangC(tt.c, tt.a), 0.01, "a p99 wait of 0 means at most 1%% wait; %s", tt.reason)
			}
		})
	}
}

func TestMeanWaitMS(t *testing.T) {
	tests := []struct {
		reason     string
		c          int
		a, service float64
		want       float64
	}{
		{reason: "M/M/1: ρ·s/(1−ρ)", c: 1, a: 0.75, service: 20, want: 0.75 * 20 / 0.25},
		{reason: "M/M/2 at ρ = 0.5: C = 1/3, so (1/3)·s/1", c: 2, a: 1, service: 30, want: 10},
		{reason: "the sale, 19 servers", c: 19, a: 12, service: 80, want: ErlangC(19, 12) * 80 / 7},
	}
	for _, tt := range tests {
		t.Run(tt.reason, func(t *testing.T) {
			assert.InEpsilon(t, tt.want, MeanWaitMS(tt.c, tt.a, tt.service), 1e-14, "%s", tt.reason)
		})
	}
}

func BenchmarkErlangC(b *testing.B) {
	for b.Loop() {
		sinkFloat = ErlangC(19, 12)
	}
}

var sinkFloat float64
