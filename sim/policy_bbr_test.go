package sim

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// bbrStep is one thing the BBR rule hears, at atMS: n samples of a
// latency (rttMS), an arrival (n = 0), an arrival the limit refused
// (refused), or a change in the workers busy (busy >= 0); want is the
// limit after it (0: not checked).
type bbrStep struct {
	atMS     float64
	n        int
	rttMS    float64
	inFlight int // the requests in flight as the samples leave (go-zero's avgFlying)
	refused  bool
	busy     int
	want     int
}

// TestBBRRule feeds the BBR rule (rule 39) sequences whose limits follow
// by hand from the sources and their defaults: go-kratos/aegis
// ratelimit/bbr/bbr.go at e0742c6a630721538fc0ae417abee9e0cbe2414b and
// go-zero core/load/adaptiveshedder.go at
// 11f21098ddd95a58f801920fea4f0543d4d01586 (lines cited per case).
func TestBBRRule(t *testing.T) {
	const open = bbrOpen
	arrive := func(at float64, want int) bbrStep { return bbrStep{atMS: at, busy: -1, want: want} }
	refuse := func(at float64, want int) bbrStep { return bbrStep{atMS: at, busy: -1, refused: true, want: want} }
	samples := func(at float64, n int, rtt float64, inFlight int) bbrStep {
		return bbrStep{atMS: at, n: n, rttMS: rtt, inFlight: inFlight, busy: -1}
	}
	busy := func(at float64, n int) bbrStep { return bbrStep{atMS: at, busy: n, want: -1} }
	for _, tc := range []struct {
		reason   string
		settings BBRSettings
		steps    []bbrStep
	}{
		// Kratos, gated at once (threshold 0.01% = 0‰): bbr.go:180 and
		// :218 reduce the buckets before the current one; :216 takes
		// ceil(min average), :302 ceil(rtt in ms); :243 maxInFlight =
		// floor(maxPass x minRT x 10 / 1000) (the + 0.5 is outside the
		// floor); :267 drops when in flight > max(1, maxInFlight), so the
		// limit (admitted while in flight < L) is that + 1.
		{"Kratos: buckets, the current one left out, and the 10 s window", BBRSettings{BBRCPUThresholdPct: 0.01}, []bbrStep{
			arrive(50, 2),            // no latencies: minRT 1 (MaxFloat64 converts negative on amd64, then 1); floor(1 x 1 x 10 / 1000) = 0 -> 2
			samples(60, 30, 80.2, 0), // bucket 0: 30 passes of ceil(80.2) = 81 ms
			arrive(99, 2),            // still bucket 0, left out
			arrive(100, 25),          // bucket 1: floor(30 x 81 x 10 / 1000) = floor(24.3) = 24 -> 25
			samples(150, 20, 40, 0),  // bucket 1: 20 passes of 40 ms
			arrive(200, 13),          // max pass 30, min RT 40: 30 x 40 x 10 / 1000 = 12 -> 13
			arrive(10_050, 9),        // bucket 100: buckets 1..99; bucket 0 is out: 20 x 40 x 10 / 1000 = 8 -> 9
			arrive(10_150, 2),        // bucket 101: nothing left
		}},
		// Kratos's CPU: bbr.go:34 samples every 500 ms, :48 cpu =
		// int64(prev x decay + usage x (1 - decay)); decay 0.5 here
		// (default 0.95, :16): 8 of 8 busy gives 500, 750, 875. :248
		// sheds at >= 800 (:141); :275 notes the first drop; :256 keeps
		// shedding while now - drop <= 1 s; :262 then clears it.
		{"Kratos: the CPU gate opens at 800, and the 1 s cool-off from the first drop", BBRSettings{BBRCPUDecay: 0.5}, []bbrStep{
			busy(0, 8),
			samples(1_050, 30, 80.2, 0), // bucket 10
			arrive(1_100, open),         // cpu 750 since 1 s: under 800
			arrive(1_499, open),
			arrive(1_500, 25), // cpu 875: max pass 30, min RT 81 -> 25
			refuse(1_550, 25), // the first drop: 1.55 s
			busy(1_600, 0),
			arrive(2_000, 25), // busy 100 of the 500 ms: 200, cpu int64(875 x 0.5 + 200 x 0.5) = 537, under; 0.45 s since the drop
			refuse(2_300, 25), // a drop in the cool-off does not move it
			arrive(2_550, 25), // exactly 1 s: still
			arrive(2_550.000001, open),
			arrive(2_600, open), // cleared: open until the CPU is over again
		}},
		// Kratos's CPU is the process's CPU time over the period
		// (internal/cpu/cgroup.go's usage delta over the system's): 8 of
		// 8 busy for 250 of the first 500 ms is 500, cpu int64(0 x 0.5 +
		// 500 x 0.5) = 250, at the threshold of 25% (250). The workers
		// busy at the sample's instant would read 0. Then idle: a reading
		// of 0 is not stored (stat.go:42), so 500 stays, and cpu climbs
		// to 375; 2 busy for the next 500 ms read 250: cpu 312.
		{"Kratos: the CPU is the share busy over the period, and an idle period keeps the last reading", BBRSettings{BBRCPUDecay: 0.5, BBRCPUThresholdPct: 32}, []bbrStep{
			busy(0, 8),
			busy(250, 0),
			arrive(499, open),   // not yet sampled: cpu 0
			arrive(500, open),   // cpu 250: under 320
			arrive(1_000, 2),    // cpu 375: gated; no latencies: minRT 1, max(1, 0) + 1
			busy(1_000, 2),      // 2 of 8 from 1 s
			arrive(1_500, open), // 250: cpu int64(375 x 0.5 + 250 x 0.5) = 312, under 320
		}},
		// go-zero: usage.go:16 samples every 250 ms, :38 with beta 0.5
		// here (default 0.95, :19): 500, 750, 875, 937 >= 900 (:22).
		// adaptiveshedder.go:192 rounds each bucket's average; :167
		// maxFlight = max(1, maxPass x minRt x 10 / 1000) = 30 x 81 /
		// 100 = 24.3; :203 factor (1000 - cpu) / (1000 - 900) in [0.1,
		// 1] (:29); :148 avgFlying = avg x 0.9 + flying x 0.1 as each
		// leaves; :158 drops while both avgFlying and flying are over
		// maxFlight x factor. 30 samples leaving with 30 in flight:
		// avgFlying = 30 (1 - 0.9^30) = 28.73.
		{"go-zero: the overload factor, avgFlying, and the cool-off from the last overload", BBRSettings{BBRRule: BBRGoZero, BBRCPUDecay: 0.5}, []bbrStep{
			busy(0, 8),
			samples(200, 30, 80.2, 30), // bucket 2
			arrive(750, open),          // cpu 875
			arrive(1_000, 16),          // cpu 937: factor 0.63, 24.3 x 0.63 = 15.309 < 28.73 -> 16
			arrive(1_100, 16),          // :250 notes the overload at 1.1 s
			refuse(1_150, 16),          // an arrival too: the overload now 1.15 s; :126 droppedRecently
			busy(1_200, 0),
			arrive(1_250, 25),        // busy 200 of the 250 ms: 800, cpu int64(937 x 0.5 + 800 x 0.5) = 868: factor 1, 24.3 < 28.73 -> 25 while hot (:237: 0.1 s since 1.15 s)
			arrive(2_149.999999, 25), // still under 1 s
			arrive(2_150, open),      // :241 clears droppedRecently
			arrive(2_200, open),
		}},
		// go-zero's defaultMinRt (:23) and overloadFactorLowerBound
		// (:29, :205) as settings: cpu 500, 750, 875, 937, 968 by
		// 1.25 s; factor (1000 - 968) / 100 = 0.32, raised to the floor
		// 0.5: 30 x min(500, 81) x 10 / 1000 x 0.5 = 12.15 < 28.73 -> 13
		// (0.1, the default, would leave 0.32: 7.776 -> 8).
		{"go-zero: the overload floor and the least latency's cap as settings", BBRSettings{BBRRule: BBRGoZero, BBRCPUDecay: 0.5, BBROverloadFloor: 0.5, BBRMinRTMS: 500}, []bbrStep{
			busy(0, 8),
			samples(200, 30, 80.2, 30), // bucket 2
			arrive(1_250, 13),
		}},
		{"go-zero: an empty window's minRt is the cap, here 500 ms", BBRSettings{BBRRule: BBRGoZero, BBRCPUThresholdPct: 0.01, BBRMinRTMS: 500}, []bbrStep{
			samples(60, 10, 5, 20), // avgFlying 20 (1 - 0.9^10) = 13.03
			arrive(90, 6),          // bucket 0 left out: max(1, 1 x 500 x 10 / 1000) = 5 < 13.03 -> 6
		}},
		{"go-zero: below avgFlying the limit stays open though gated; an empty window's minRt is 1,000 ms; maxFlight is at least 1", BBRSettings{BBRRule: BBRGoZero, BBRCPUThresholdPct: 0.01}, []bbrStep{
			arrive(50, open),       // avgFlying 0: not over max(1, 1 x 1000 x 10 / 1000) = 10
			samples(60, 10, 5, 20), // avgFlying 20 (1 - 0.9^10) = 13.03
			arrive(90, 11),         // bucket 0 left out: 1 x 1000 / 100 = 10 < 13.03 -> 11
			arrive(100, 2),         // bucket 1: max pass 10, min RT 5: max(1, 0.5) = 1; factor 1000 / 1000 = 1; 1 < 13.03 -> 2
		}},
	} {
		c := DefaultConfig()
		c.Policy, c.BBRSettings = BBR, tc.settings
		require.NoError(t, c.Validate(), tc.reason)
		l := BBR.spec().limiter(c).(*bbrLimit)
		state := &limitState{}
		// the workers busy since changed, ns, and the worker time busy
		// before then
		workersBusy, changed, busyBefore := int64(0), int64(0), int64(0)
		l.watch(state, func(t int64) (int64, int64) { return busyBefore + workersBusy*(t-changed), 8 * t })
		assert.Equal(t, open, l.limit(), "%s: open at the start", tc.reason)
		advance := func(to int64) {
			for l.due() <= to {
				l.tick(l.due())
			}
		}
		for k, s := range tc.steps {
			now := ms(s.atMS)
			advance(now)
			switch {
			case s.busy >= 0:
				busyBefore += workersBusy * (now - changed)
				workersBusy, changed = int64(s.busy), now
			case s.n > 0:
				state.inFlight = s.inFlight
				for range s.n {
					l.sample(now, now-ms(s.rttMS), 1, false)
				}
			default:
				l.arrive(now)
				if s.refused {
					l.refused(now)
				}
			}
			if s.want > 0 {
				assert.Equal(t, s.want, l.limit(), "%s: after step %d (%+v)", tc.reason, k+1, s)
			}
		}
	}
}

// TestBBRBadInput: out of range, the field is named.
func TestBBRBadInput(t *testing.T) {
	for _, tc := range []struct {
		reason string
		set    func(*BBRSettings)
		field  string
	}{
		{"a window of no time", func(s *BBRSettings) { s.BBRWindowS = -1 }, "bbr_window_s"},
		{"buckets under 1 ms", func(s *BBRSettings) { s.BBRWindowS, s.BBRBuckets = 1, 2000 }, "bbr_buckets"},
		{"a negative bucket count", func(s *BBRSettings) { s.BBRBuckets = -1 }, "bbr_buckets"},
		{"a threshold of 100%, which go-zero divides by 100% less", func(s *BBRSettings) { s.BBRCPUThresholdPct = 100 }, "bbr_cpu_threshold_pct"},
		{"a threshold over 100%", func(s *BBRSettings) { s.BBRCPUThresholdPct = 101 }, "bbr_cpu_threshold_pct"},
		{"a CPU period of no time", func(s *BBRSettings) { s.BBRCPUPeriodMS = -5 }, "bbr_cpu_period_ms"},
		{"a decay of 1 never moves", func(s *BBRSettings) { s.BBRCPUDecay = 1 }, "bbr_cpu_decay"},
		{"a negative cool-off", func(s *BBRSettings) { s.BBRCoolOffMS = -1 }, "bbr_cool_off_ms"},
		{"a flying beta over 1", func(s *BBRSettings) { s.BBRFlyingBeta = 1.5 }, "bbr_flying_beta"},
		{"go-zero's flying beta with Kratos's rule", func(s *BBRSettings) { s.BBRFlyingBeta = 0.5 }, "bbr_flying_beta"},
		{"go-zero's least latency cap with Kratos's rule", func(s *BBRSettings) { s.BBRMinRTMS = 500 }, "bbr_min_rt_ms"},
		{"go-zero's overload floor with Kratos's rule", func(s *BBRSettings) { s.BBROverloadFloor = 0.5 }, "bbr_overload_floor"},
		{"an overload floor over 1", func(s *BBRSettings) { s.BBRRule, s.BBROverloadFloor = BBRGoZero, 1.5 }, "bbr_overload_floor"},
		{"a negative least latency cap", func(s *BBRSettings) { s.BBRRule, s.BBRMinRTMS = BBRGoZero, -1 }, "bbr_min_rt_ms"},
		{"a rule that is neither", func(s *BBRSettings) { s.BBRRule = 7 }, "bbr_rule"},
	} {
		c := DefaultConfig()
		c.Policy = BBR
		tc.set(&c.BBRSettings)
		var fields []string
		for _, fe := range FieldErrors(c.Validate()) {
			fields = append(fields, fe.Field)
		}
		assert.Contains(t, fields, tc.field, tc.reason)
	}
}

// TestBBRBelowCapacity: at the post's 70/s with no sale (8 workers at
// 80 ms, 70% busy on average) the smoothed share of workers busy seldom
// reaches either threshold, and the limit refuses almost nothing, over
// seeds, under either rule.
func TestBBRBelowCapacity(t *testing.T) {
	for _, rule := range []BBRRule{BBRKratos, BBRGoZero} {
		total, refused := 0, 0
		for seed := uint64(1); seed <= 10; seed++ {
			c := DefaultConfig()
			c.Policy, c.SaleRPS, c.Seed, c.BBRRule = BBR, c.NormalRPS, seed, rule
			r, err := Run(c)
			require.NoError(t, err)
			require.NotNil(t, r.Limit)
			assert.Less(t, r.Limit.NormalRefusedShare, 0.01, "%s, seed %d: under 1%% refused below capacity", rule, seed)
			total += r.Attempts
			refused += r.Limit.Refused
		}
		t.Logf("%s: below capacity, seeds 1..10, the limit refused %d of %d attempts (%.3f%%)", rule, refused, total, 100*float64(refused)/float64(total))
	}
}

// TestBBRSaleBoundsInFlight: in the post's sale (from 5 s in, once the
// smoothed CPU has climbed) the limit sheds, the most in flight at any
// 100 ms step stays under a fifth of the most the post's unbounded
// queue holds, and it answers more of the sale, over seeds, under either
// rule. The bound is loose, not a ceiling: shedding starves the workers,
// the smoothed CPU falls under the threshold, the gate opens after the
// cool-off, and a flood gets in before the CPU climbs again.
func TestBBRSaleBoundsInFlight(t *testing.T) {
	for _, rule := range []BBRRule{BBRKratos, BBRGoZero} {
		for seed := uint64(1); seed <= 5; seed++ {
			c := DefaultConfig()
			c.Policy, c.Seed, c.BBRRule, c.SeriesStepS = BBR, seed, rule, 0.1
			r, err := Run(c)
			require.NoError(t, err)
			checkInvariants(t, c, r)
			require.NotNil(t, r.Limit)
			assert.Positive(t, r.Limit.Refused, "%s, seed %d: it sheds in the sale", rule, seed)
			assert.Less(t, r.Limit.Lowest, 40, "%s, seed %d: the limit closes in", rule, seed)
			most, shedding := 0, 0
			for _, p := range r.Series.Points {
				if p.StartS < c.SaleStartS+5 || p.StartS >= c.SaleEndS() {
					continue
				}
				most = max(most, p.InFlight)
				if p.Limit < bbrOpen {
					shedding++
				}
			}
			f := c
			f.Policy = FIFO
			rf, err := Run(f)
			require.NoError(t, err)
			fifoMost := 0
			for _, p := range rf.Series.Points {
				if p.StartS >= c.SaleStartS+5 && p.StartS < c.SaleEndS() {
					fifoMost = max(fifoMost, p.Queue)
				}
			}
			assert.Positive(t, shedding, "%s, seed %d: the limit was closed for some of the sale", rule, seed)
			assert.Greater(t, fifoMost, 5*most, "%s, seed %d: the post's queue holds far more", rule, seed)
			assert.Greater(t, r.Sale.AnsweredShare, rf.Sale.AnsweredShare, "%s, seed %d: it answers more of the sale than fifo", rule, seed)
			t.Logf("%s, seed %d: closed at %d of %d steps; most in flight in the sale %d (fifo's queue %d), limit %d..%d, answered %.1f%% of the sale (fifo %.1f%%), normal refused %.2f%%",
				rule, seed, shedding, int(10*(c.SaleS-5)), most, fifoMost, r.Limit.Lowest, r.Limit.Highest, 100*r.Sale.AnsweredShare, 100*rf.Sale.AnsweredShare, 100*r.Limit.NormalRefusedShare)
		}
	}
}

// TestBBRRollMatchesReduce: the window rolled on a bucket at a time keeps
// the most passed and the least average it would reduce to afresh, under
// either rule, over a random stream of samples and ticks.
func TestBBRRollMatchesReduce(t *testing.T) {
	for _, rule := range []BBRRule{BBRKratos, BBRGoZero} {
		c := DefaultConfig()
		c.Policy, c.BBRRule, c.BBRWindowS, c.BBRBuckets = BBR, rule, 1, 10
		l := BBR.spec().limiter(c).(*bbrLimit)
		r := newStream(7, streamLimiter)
		now := int64(0)
		for step := range 20_000 {
			now += int64(r.Float64() * 40e6) // up to 40 ms on
			if r.Float64() < 0.5 {
				l.tick(min(now, l.due()))
			}
			l.sample(now, now-int64(1+r.Float64()*300e6), 1, false)
			maxPass, minAvg := l.maxPass, l.minAvg
			l.reduce()
			require.Equal(t, l.maxPass, maxPass, "%s, step %d: the most passed", rule, step)
			require.Equal(t, l.minAvg, minAvg, "%s, step %d: the least average", rule, step)
		}
	}
}
