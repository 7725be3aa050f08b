package portable

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The standard library's amd64 assembly for Exp and Log is itself off by more
// than one ulp in places (Exp overflows to +Inf from about 709.44 instead of
// 709.78; Log is wrong for subnormal inputs; and Exp is two ulps from the
// truth at some inputs), so the tests compare with the standard library
// within 2 ulps where it is sound, and with a big.Float reference within
// 1 ulp everywhere.

func TestExpMatchesMath(t *testing.T) {
	tests := []struct {
		reason   string
		lo, hi   float64
		n        int
		maxUlps  uint64
		seedHigh uint64
	}{
		{reason: "around zero, where the polynomial alone does the work", lo: -0.35, hi: 0.35, n: 200_000, maxUlps: 2, seedHigh: 1},
		{reason: "the range a queueing formula uses", lo: -50, hi: 50, n: 200_000, maxUlps: 2, seedHigh: 2},
		{reason: "large negative, results near the normal minimum", lo: -708, hi: -600, n: 100_000, maxUlps: 2, seedHigh: 3},
		{reason: "large positive, below where amd64's assembly overflows early", lo: 600, hi: 709.4, n: 100_000, maxUlps: 2, seedHigh: 4},
	}
	for _, tt := range tests {
		t.Run(tt.reason, func(t *testing.T) {
			r := rand.New(rand.NewPCG(tt.seedHigh, 7))
			for range tt.n {
				x := tt.lo + r.Float64()*(tt.hi-tt.lo)
				got, want := Exp(x), math.Exp(x)
				if d := ulps(got, want); d > tt.maxUlps {
					require.Failf(t, "Exp differs from math.Exp", "x=%v: got %v, math.Exp %v, %d ulps apart; %s", x, got, want, d, tt.reason)
				}
			}
		})
	}
}

func TestLogMatchesMath(t *testing.T) {
	tests := []struct {
		reason   string
		lo, hi   float64
		n        int
		maxUlps  uint64
		seedHigh uint64
	}{
		{reason: "near one, where log is small and cancellation bites", lo: 0.7, hi: 1.4, n: 200_000, maxUlps: 1, seedHigh: 1},
		{reason: "the range a queueing formula uses", lo: 1e-6, hi: 1e6, n: 200_000, maxUlps: 1, seedHigh: 2},
	}
	for _, tt := range tests {
		t.Run(tt.reason, func(t *testing.T) {
			r := rand.New(rand.NewPCG(tt.seedHigh, 11))
			for range tt.n {
				x := tt.lo + r.Float64()*(tt.hi-tt.lo)
				got, want := Log(x), math.Log(x)
				if d := ulps(got, want); d > tt.maxUlps {
					require.Failf(t, "Log differs from math.Log", "x=%v: got %v, math.Log %v, %d ulps apart; %s", x, got, want, d, tt.reason)
				}
			}
		})
	}

	t.Run("every normal float64, by its bits", func(t *testing.T) {
		r := rand.New(rand.NewPCG(3, 11))
		for range 200_000 {
			x := math.Float64frombits(r.Uint64() &^ (1 << 63))
			if math.IsNaN(x) || math.IsInf(x, 0) || x < 0x1p-1022 {
				continue // amd64's assembly is wrong for subnormals
			}
			got, want := Log(x), math.Log(x)
			if d := ulps(got, want); d > 1 {
				require.Failf(t, "Log differs from math.Log", "x=%v: got %v, math.Log %v, %d ulps apart", x, got, want, d)
			}
		}
	})
}

func TestExpWithinOneUlpOfTruth(t *testing.T) {
	tests := []struct {
		reason   string
		lo, hi   float64
		seedHigh uint64
	}{
		{reason: "the whole finite range, subnormal results included", lo: -745.1, hi: 709.78, seedHigh: 1},
		{reason: "near zero", lo: -1, hi: 1, seedHigh: 2},
		{reason: "results that are subnormal", lo: -745.1, hi: -708.4, seedHigh: 3},
		{reason: "just below overflow, where amd64's assembly already says +Inf", lo: 709.4, hi: 709.78, seedHigh: 4},
	}
	for _, tt := range tests {
		t.Run(tt.reason, func(t *testing.T) {
			r := rand.New(rand.NewPCG(tt.seedHigh, 13))
			for range 500 {
				x := tt.lo + r.Float64()*(tt.hi-tt.lo)
				got, want := Exp(x), refExp(x)
				assert.LessOrEqual(t, ulps(got, want), uint64(1), "x=%v: got %v, correctly rounded %v", x, got, want)
			}
		})
	}
}

func TestLogWithinOneUlpOfTruth(t *testing.T) {
	tests := []struct {
		reason   string
		gen      func(r *rand.Rand) float64
		seedHigh uint64
	}{
		{reason: "any positive float64 by its bits, subnormals included", seedHigh: 1, gen: func(r *rand.Rand) float64 {
			return math.Float64frombits(r.Uint64() % math.Float64bits(math.MaxFloat64))
		}},
		{reason: "subnormals only", seedHigh: 2, gen: func(r *rand.Rand) float64 {
			return math.Float64frombits(r.Uint64() % (1 << 52))
		}},
		{reason: "near one", seedHigh: 3, gen: func(r *rand.Rand) float64 {
			return 0.9 + 0.2*r.Float64()
		}},
	}
	for _, tt := range tests {
		t.Run(tt.reason, func(t *testing.T) {
			r := rand.New(rand.NewPCG(tt.seedHigh, 17))
			for range 500 {
				x := tt.gen(r)
				if x == 0 {
					continue
				}
				got, want := Log(x), refLog(x)
				assert.LessOrEqual(t, ulps(got, want), uint64(1), "x=%v: got %v, correctly rounded %v", x, got, want)
			}
		})
	}
}

func TestExpSpecialCases(t *testing.T) {
	tests := []struct {
		reason string
		x      float64
		want   float64
	}{
		{reason: "NaN in, NaN out", x: math.NaN(), want: math.NaN()},
		{reason: "+Inf overflows to +Inf", x: math.Inf(1), want: math.Inf(1)},
		{reason: "-Inf underflows to 0", x: math.Inf(-1), want: 0},
		{reason: "exp(0) is exactly 1", x: 0, want: 1},
		{reason: "exp(-0) is exactly 1", x: math.Copysign(0, -1), want: 1},
		{reason: "above ln(MaxFloat64) overflows", x: 709.79, want: math.Inf(1)},
		{reason: "far above overflows", x: 1e300, want: math.Inf(1)},
		{reason: "just below ln(MaxFloat64) stays finite", x: 709.782712893383, want: 1.7976931348604338e+308},
		{reason: "below ln(SmallestNonzeroFloat64) underflows to 0", x: -745.14, want: 0},
		{reason: "far below underflows to 0", x: -1e300, want: 0},
		{reason: "the smallest subnormal", x: -745, want: math.SmallestNonzeroFloat64},
		{reason: "tiny arguments return 1 + x", x: 1e-20, want: 1},
		{reason: "ln 2 gives exactly 2", x: math.Ln2, want: 2},
	}
	for _, tt := range tests {
		t.Run(tt.reason, func(t *testing.T) {
			got := Exp(tt.x)
			if math.IsNaN(tt.want) {
				assert.True(t, math.IsNaN(got), "Exp(%v) = %v, want NaN; %s", tt.x, got, tt.reason)
				return
			}
			assert.Equal(t, math.Float64bits(tt.want), math.Float64bits(got), "Exp(%v) = %v, want %v; %s", tt.x, got, tt.want, tt.reason)
		})
	}
}

func TestLogSpecialCases(t *testing.T) {
	tests := []struct {
		reason string
		x      float64
		want   float64
	}{
		{reason: "NaN in, NaN out", x: math.NaN(), want: math.NaN()},
		{reason: "log(+Inf) is +Inf", x: math.Inf(1), want: math.Inf(1)},
		{reason: "log(-Inf) is NaN", x: math.Inf(-1), want: math.NaN()},
		{reason: "log(0) is -Inf", x: 0, want: math.Inf(-1)},
		{reason: "log(-0) is -Inf", x: math.Copysign(0, -1), want: math.Inf(-1)},
		{reason: "a negative number has no real log", x: -1, want: math.NaN()},
		{reason: "a tiny negative number has no real log", x: -math.SmallestNonzeroFloat64, want: math.NaN()},
		{reason: "log(1) is exactly 0", x: 1, want: 0},
		{reason: "log(e) is 1", x: math.E, want: 1},
		{reason: "log(2) is ln 2", x: 2, want: math.Ln2},
		{reason: "the smallest subnormal, where amd64's assembly says -709.09", x: math.SmallestNonzeroFloat64, want: -744.4400719213812},
		{reason: "the largest float64", x: math.MaxFloat64, want: 709.782712893384},
	}
	for _, tt := range tests {
		t.Run(tt.reason, func(t *testing.T) {
			got := Log(tt.x)
			if math.IsNaN(tt.want) {
				assert.True(t, math.IsNaN(got), "Log(%v) = %v, want NaN; %s", tt.x, got, tt.reason)
				return
			}
			assert.Equal(t, math.Float64bits(tt.want), math.Float64bits(got), "Log(%v) = %v, want %v; %s", tt.x, got, tt.want, tt.reason)
		})
	}
}

// TestExpGolden pins exact bits. The values were computed by this package;
// the test exists so that a change of platform, compiler or code that moves
// even the last bit fails here, on every GOARCH.
func TestExpGolden(t *testing.T) {
	tests := []struct {
		reason string
		x      float64
		bits   uint64
	}{
		{reason: "the smallest subnormal result", x: -745, bits: 0x0000000000000001},
		{reason: "a subnormal result", x: -709.5, bits: 0x00054e90c99fb878},
		{reason: "a normal result near the bottom", x: -700.5, bits: 0x00c4ff475c68ca02},
		{reason: "large negative", x: -100, bits: 0x36ea8c1f14e2af5d},
		{reason: "moderate negative", x: -20.25, bits: 0x3e1b93de1e27ca3b},
		{reason: "1/e", x: -1, bits: 0x3fd78b56362cef38},
		{reason: "negative half", x: -0.5, bits: 0x3fe368b2fc6f960a},
		{reason: "tiny negative, just past the near-zero shortcut", x: -1e-8, bits: 0x3feffffffaa19c48},
		{reason: "tiny positive", x: 1e-9, bits: 0x3ff000000044b830},
		{reason: "a tenth", x: 0.1, bits: 0x3ff1aec7b35a00d4},
		{reason: "a half", x: 0.5, bits: 0x3ffa61298e1e069c},
		{reason: "e", x: 1, bits: 0x4005bf0a8b145769},
		{reason: "e squared", x: 2, bits: 0x401d8e64b8d4ddae},
		{reason: "a two-ulp disagreement with amd64's assembly", x: -5.263536381381641, bits: 0x3f753470d98db97a},
		{reason: "moderate", x: 3.7, bits: 0x4044394144eeec81},
		{reason: "ten", x: 10, bits: 0x40d5829dcf950560},
		{reason: "twenty and a quarter", x: 20.25, bits: 0x41c290d76d1966a9},
		{reason: "a hundred", x: 100, bits: 0x48f3494a9b171bf5},
		{reason: "large", x: 700, bits: 0x7f0d945df4f8ec8e},
		{reason: "near the top, where amd64's assembly says +Inf", x: 709.78, bits: 0x7fefe9ce5c4c52b4},
	}
	for _, tt := range tests {
		t.Run(tt.reason, func(t *testing.T) {
			got := math.Float64bits(Exp(tt.x))
			assert.Equal(t, tt.bits, got, "Exp(%v) bits = %#016x, want %#016x; %s", tt.x, got, tt.bits, tt.reason)
		})
	}
}

// TestLogGolden pins exact bits, as TestExpGolden does.
func TestLogGolden(t *testing.T) {
	tests := []struct {
		reason string
		x      float64
		bits   uint64
	}{
		{reason: "the smallest subnormal", x: 5e-324, bits: 0xc0874385446d71c3},
		{reason: "a subnormal", x: 1e-310, bits: 0xc0864e69394d9508},
		{reason: "tiny", x: 1e-300, bits: 0xc085963447f87fb5},
		{reason: "small", x: 1e-10, bits: 0xc037069e2aa2aa5b},
		{reason: "the planner's 1%", x: 0.01, bits: 0xc0126bb1bbb55516},
		{reason: "a tenth", x: 0.1, bits: 0xc0026bb1bbb55515},
		{reason: "a half", x: 0.5, bits: 0xbfe62e42fefa39ef},
		{reason: "three quarters", x: 0.75, bits: 0xbfd269621134db92},
		{reason: "just below one", x: 0.999999, bits: 0xbeb0c6f82d74d230},
		{reason: "just above one", x: 1.000001, bits: 0x3eb0c6f713f33a1d},
		{reason: "one and a half", x: 1.5, bits: 0x3fd9f323ecbf984c},
		{reason: "two", x: 2, bits: 0x3fe62e42fefa39ef},
		{reason: "e", x: math.E, bits: 0x3ff0000000000000},
		{reason: "three", x: 3, bits: 0x3ff193ea7aad030a},
		{reason: "seven and a half", x: 7.5, bits: 0x40001e85798eb9a3},
		{reason: "about C/0.01 in the planner at 150/s, 80 ms, 19 servers", x: 4.3507, bits: 0x3ff7867fd46a2aca},
		{reason: "a hundred", x: 100, bits: 0x40126bb1bbb55516},
		{reason: "not a round number", x: 12345.678, bits: 0x4022d79559791e31},
		{reason: "large", x: 1e300, bits: 0x4085963447f87fb5},
		{reason: "the largest float64", x: math.MaxFloat64, bits: 0x40862e42fefa39ef},
	}
	for _, tt := range tests {
		t.Run(tt.reason, func(t *testing.T) {
			got := math.Float64bits(Log(tt.x))
			assert.Equal(t, tt.bits, got, "Log(%v) bits = %#016x, want %#016x; %s", tt.x, got, tt.bits, tt.reason)
		})
	}
}

var sink float64

func BenchmarkExp(b *testing.B) {
	x := -3.7
	for b.Loop() {
		sink = Exp(x)
	}
}

func BenchmarkLog(b *testing.B) {
	x := 4.3507
	for b.Loop() {
		sink = Log(x)
	}
}
