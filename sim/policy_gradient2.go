package sim

import (
	"math"

	"github.com/shedsim/shedsim/sim/internal/limits"
)

// Gradient2 is Netflix's Gradient2 limit (rule 36) behind its
// WindowedLimit: each window of a second and at least ten samples gives
// an average round trip, compared with a long, smoothed average of them;
// the limit shrinks by their ratio when the window's is longer, and adds
// a small queue each window otherwise.
const Gradient2 Policy = 8

// Gradient2Settings are the settings of the Gradient2 limit and its
// window (rule 36), which Config embeds. Each 0 stands for the library's
// default.
type Gradient2Settings struct {
	// Gradient2InitialLimit, Gradient2MinLimit and Gradient2MaxLimit are
	// the limit's start and bounds, in requests in flight (0: 20, 20 and
	// 200: initialLimit, minLimit, maxConcurrency).
	Gradient2InitialLimit int `json:"gradient2_initial_limit,omitempty"`
	Gradient2MinLimit     int `json:"gradient2_min_limit,omitempty"`
	Gradient2MaxLimit     int `json:"gradient2_max_limit,omitempty"`
	// Gradient2Smoothing is the share of each new estimate the limit
	// takes, above 0 and at most 1 (0: 0.2, smoothing).
	Gradient2Smoothing float64 `json:"gradient2_smoothing,omitempty"`
	// Gradient2Queue is the requests added to the limit each window, the
	// queue it allows (0: 4, queueSize).
	Gradient2Queue int `json:"gradient2_queue,omitempty"`
	// Gradient2LongWindow is the windows the long average spans (0: 600,
	// longWindow).
	Gradient2LongWindow int `json:"gradient2_long_window,omitempty"`
	// Gradient2Tolerance is how much longer than the long average a
	// window's round trip may be before the limit shrinks, at least 1
	// (0: 1.5, rttTolerance).
	Gradient2Tolerance float64 `json:"gradient2_tolerance,omitempty"`
	// Gradient2WindowMS is a window's length, ms, at least 100 (0: 1000,
	// WindowedLimit's minWindowTime and maxWindowTime, one setting here).
	Gradient2WindowMS float64 `json:"gradient2_window_ms,omitempty"`
	// Gradient2WindowSize is the fewest samples a window needs to count
	// (0: 10, windowSize, at least 10).
	Gradient2WindowSize int `json:"gradient2_window_size,omitempty"`
	// Gradient2MinRTTMS is the shortest round trip the window takes as a
	// sample, ms (0: 0.1, minRttThreshold).
	Gradient2MinRTTMS float64 `json:"gradient2_min_rtt_ms,omitempty"`
}

// The Gradient2 limit's defaults, from Gradient2Limit.Builder and
// WindowedLimit.
const (
	gradient2Initial    = 20
	gradient2Min        = 20
	gradient2Max        = 200
	gradient2Smoothing  = 0.2
	gradient2Queue      = 4
	gradient2LongWindow = 600
	gradient2Tolerance  = 1.5
	gradient2WindowMS   = 1000
	gradient2WindowSize = 10
	gradient2MinRTTMS   = 0.1
	gradient2Warmup     = 10 // ExpAvgMeasurement's warmupWindow, fixed in Gradient2Limit
)

func init() {
	whole := func(key, label, zero, help string, lo float64) Setting {
		return Setting{Key: key, Group: GroupAdvanced, Label: label, Unit: "0 = " + zero, Kind: Whole, Min: lo, Max: maxLimit, Zero: zero,
			Owner: policy, validatedHere: true, Help: "Gradient2 limit: " + help + " (0: Netflix's " + zero + ")"}
	}
	definePolicy(Gradient2, policySpec{
		key: "gradient2", title: "Gradient2 limit (Netflix)", short: "Gradient2", noun: "Netflix's Gradient2 limit",
		light: "#4a5a8c", dark: "#a3b4ec", dash: "8 2 1 2",
		rule: 36,
		settings: []string{"limit_queue", "gradient2_initial_limit", "gradient2_min_limit", "gradient2_max_limit", "gradient2_smoothing", "gradient2_queue",
			"gradient2_long_window", "gradient2_tolerance", "gradient2_window_ms", "gradient2_window_size", "gradient2_min_rtt_ms"},
		declares: []Setting{
			whole("gradient2_initial_limit", "Gradient2 initial limit", "20", "the limit before the first window, requests in flight", 1),
			whole("gradient2_min_limit", "Gradient2 min limit", "20", "the least the limit falls to", 1),
			whole("gradient2_max_limit", "Gradient2 max limit", "200", "the most the limit climbs to", 1),
			{Key: "gradient2_smoothing", Group: GroupAdvanced, Label: "Gradient2 smoothing", Unit: "0 = 0.2", Kind: Real, Min: 0, Max: 1, MinOpen: true, Zero: "0.2",
				Owner: policy, validatedHere: true, Help: "Gradient2 limit: the share of each new estimate the limit takes, above 0 to 1 (0: Netflix's 0.2)"},
			whole("gradient2_queue", "Gradient2 queue", "4", "requests added to the limit each window", 1),
			whole("gradient2_long_window", "Gradient2 long window", "600", "windows the long average of round trips spans", 1),
			{Key: "gradient2_tolerance", Group: GroupAdvanced, Label: "Gradient2 tolerance", Unit: "0 = 1.5", Kind: Real, Min: 1, Max: 100, Zero: "1.5",
				Owner: policy, validatedHere: true, Help: "Gradient2 limit: how much longer than the long average a window's round trip may be, at least 1 (0: Netflix's 1.5)"},
			{Key: "gradient2_window_ms", Group: GroupAdvanced, Label: "Gradient2 window", Unit: "ms, 0 = 1000", Kind: Real, Min: 100, Max: maxMS, Zero: "1000",
				Owner: policy, validatedHere: true, Help: "Gradient2 limit: a window's length, at least 100 ms (0: Netflix's 1000)"},
			whole("gradient2_window_size", "Gradient2 window size", "10", "the fewest samples a window needs to count, at least 10", 10),
			{Key: "gradient2_min_rtt_ms", Group: GroupAdvanced, Label: "Gradient2 least round trip", Unit: "ms, 0 = 0.1", Kind: Real, Min: 0, Max: maxMS, MinOpen: true, Zero: "0.1",
				Owner: policy, validatedHere: true, Help: "Gradient2 limit: a round trip shorter than this is no sample, ms (0: Netflix's 0.1)"},
		},
		validate: func(c Config, bad func(field, says string)) {
			s := c.Gradient2Settings
			if lo, hi := orInt(s.Gradient2MinLimit, gradient2Min), orInt(s.Gradient2MaxLimit, gradient2Max); lo > hi && s.Gradient2MinLimit >= 0 && s.Gradient2MaxLimit >= 0 {
				bad("gradient2_min_limit", limits.Count(int64(lo))+" is above the most the limit may climb to, {gradient2_max_limit} "+limits.Count(int64(hi))+
					": give a min of at most "+limits.Count(int64(hi))+", or a larger {gradient2_max_limit}")
			}
		},
		admit: admitLimit, take: takeOldest, shed: shedNothing,
		limiter: func(c Config) limiter {
			s := c.Gradient2Settings
			return &gradient2Limit{
				estimate:   float64(orInt(s.Gradient2InitialLimit, gradient2Initial)),
				min:        orInt(s.Gradient2MinLimit, gradient2Min),
				max:        orInt(s.Gradient2MaxLimit, gradient2Max),
				smoothing:  orReal(s.Gradient2Smoothing, gradient2Smoothing),
				queue:      orInt(s.Gradient2Queue, gradient2Queue),
				tolerance:  orReal(s.Gradient2Tolerance, gradient2Tolerance),
				long:       expAvg{window: orInt(s.Gradient2LongWindow, gradient2LongWindow), warmup: gradient2Warmup},
				windowNS:   ms(orReal(s.Gradient2WindowMS, gradient2WindowMS)),
				windowSize: orInt(s.Gradient2WindowSize, gradient2WindowSize),
				minRTT:     ms(orReal(s.Gradient2MinRTTMS, gradient2MinRTTMS)),
				w:          sampleWindow{least: math.MaxInt64},
			}
		},
		samples: []Sample{
			{"gradient2", "Gradient2 under modest overload", "Netflix's Gradient2 limit for 40 minutes at 110 a second against 100 of capacity: the long average of round trips follows them up, so the limit climbs towards its most, 200, and the waits with it, as concurrency-limits PR #134 reports.",
				withPolicy(Gradient2, func(c *Config) { c.SaleStartS, c.SaleS, c.SaleRPS, c.DurationS = 30, 2360, 110, 2400 })},
		},
	})
}

// gradient2Limit is Gradient2Limit's rule behind WindowedLimit (rule 36).
type gradient2Limit struct {
	estimate         float64 // estimatedLimit, requests
	min, max, queue  int
	smoothing        float64
	tolerance        float64
	long             expAvg // the long average of the windows' round trips, ns
	windowNS, minRTT int64
	windowSize       int
	next             int64 // nextUpdateTime, ns: 0 until the first sample
	w                sampleWindow
}

// sampleWindow is ImmutableAverageSampleWindow: the least round trip, ns,
// their sum, the most in flight, how many, and whether any was dropped.
type sampleWindow struct {
	least, sum int64
	inflight   int
	count      int
	dropped    bool
}

func (l *gradient2Limit) limit() int { return int(l.estimate) }

// sample is WindowedLimit.onSample: a round trip under the threshold is no
// sample; else it joins the window, and a sample that ends after the
// window's end closes it, starts the next, a window's length from now,
// and hands the closed one to the limit if it holds enough samples.
func (l *gradient2Limit) sample(now, start int64, inflight int, dropped bool) {
	rtt := now - start
	if rtt < l.minRTT {
		return
	}
	w := &l.w
	w.least, w.sum, w.inflight, w.count, w.dropped = min(w.least, rtt), w.sum+rtt, max(w.inflight, inflight), w.count+1, w.dropped || dropped
	if now <= l.next {
		return
	}
	closed := *w
	*w = sampleWindow{least: math.MaxInt64}
	l.next = now + l.windowNS
	if closed.least < math.MaxInt64 && closed.count >= l.windowSize {
		l.update(closed.sum/int64(closed.count), closed.inflight)
	}
}

// update is Gradient2Limit._update, for a window's average round trip,
// ns, and the most requests in flight in it.
func (l *gradient2Limit) update(rtt int64, inflight int) {
	est := l.estimate
	short := float64(rtt)
	long := l.long.add(short)
	if long/short > 2 { // latency back to normal after a long spell: bring the long average down faster
		l.long.value = float64(l.long.value * 0.95)
	}
	if float64(inflight) < est/2 { // app limited: no growth
		return
	}
	g := max(0.5, min(1.0, float64(l.tolerance*long)/short))
	next := float64(est*g) + float64(l.queue)
	next = float64(est*(1-l.smoothing)) + float64(next*l.smoothing)
	l.estimate = max(float64(l.min), min(float64(l.max), next))
}

// expAvg is ExpAvgMeasurement: the mean of the first warmup samples, then
// an exponential average with factor 2 / (window + 1).
type expAvg struct {
	window, warmup, count int
	sum, value            float64
}

func (a *expAvg) add(x float64) float64 {
	if a.count < a.warmup {
		a.count++
		a.sum += x
		a.value = a.sum / float64(a.count)
		return a.value
	}
	f := 2 / float64(a.window+1)
	a.value = float64(a.value*(1-f)) + float64(x*f)
	return a.value
}
