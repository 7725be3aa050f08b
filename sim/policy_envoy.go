package sim

import (
	"math"
	"slices"
)

// Envoy is Envoy's adaptive concurrency filter with its gradient
// controller (rule 37): every window it compares the window's p50 latency
// with a minimum round trip it measures by pinning the limit low, and
// scales the limit by their ratio, plus the square root of the result as
// headroom; a request over the limit gets an immediate 503.
const Envoy Policy = 9

// EnvoySettings are the settings of Envoy's gradient controller (rule
// 37), which Config embeds. Each 0 stands for the default.
type EnvoySettings struct {
	// EnvoyUpdateMS is concurrency_update_interval, the window between
	// limit updates, ms (0: 100, the value Envoy's documentation uses; the
	// field has no default).
	EnvoyUpdateMS float64 `json:"envoy_update_ms,omitempty"`
	// EnvoyMinRTTIntervalS is min_rtt_calc_params.interval, the time
	// between measurements of the minimum round trip, s (0: 60, the value
	// Envoy's documentation uses; the field has no default).
	EnvoyMinRTTIntervalS float64 `json:"envoy_min_rtt_interval_s,omitempty"`
	// EnvoyRequestCount is the requests a measurement of the minimum round
	// trip aggregates (0: 50, request_count).
	EnvoyRequestCount int `json:"envoy_request_count,omitempty"`
	// EnvoyJitterPct delays each measurement by up to this share of the
	// interval, percent (0: 15, jitter).
	EnvoyJitterPct float64 `json:"envoy_jitter_pct,omitempty"`
	// EnvoyBufferPct is the minimum round trip's buffer, percent (0: 25,
	// buffer).
	EnvoyBufferPct float64 `json:"envoy_buffer_pct,omitempty"`
	// EnvoyPercentile is the latency percentile a window aggregates to
	// (0: 50, sample_aggregate_percentile), above 0 and at most 100.
	EnvoyPercentile float64 `json:"envoy_percentile,omitempty"`
	// EnvoyMinConcurrency is the limit while it measures the minimum round
	// trip, and its least (0: 3, min_concurrency).
	EnvoyMinConcurrency int `json:"envoy_min_concurrency,omitempty"`
	// EnvoyMaxConcurrency is the most the limit climbs to (0: 1,000,
	// max_concurrency_limit).
	EnvoyMaxConcurrency int `json:"envoy_max_concurrency,omitempty"`
}

// The gradient controller's defaults, from GradientControllerConfig and
// the documentation's intervals.
const (
	envoyUpdateMS        = 100
	envoyMinRTTIntervalS = 60
	envoyRequestCount    = 50
	envoyJitterPct       = 15
	envoyBufferPct       = 25
	envoyPercentile      = 50
	envoyMinConcurrency  = 3
	envoyMaxConcurrency  = 1000
	envoyConsecutiveMin  = 5 // windows at the least limit that start a measurement at once
)

func init() {
	setting := func(key, label, unit, zero string, kind Kind, lo, hi float64, loOpen bool, help string) Setting {
		return Setting{Key: key, Group: GroupAdvanced, Label: label, Unit: unit + "0 = " + zero, Kind: kind, Min: lo, Max: hi, MinOpen: loOpen, Zero: zero,
			Owner: policy, validatedHere: true, Help: "Envoy's adaptive concurrency: " + help + " (0: " + zero + ")"}
	}
	definePolicy(Envoy, policySpec{
		key: "envoy", title: "Envoy's adaptive limit", short: "Envoy", noun: "Envoy's adaptive concurrency",
		light: "#8c2d19", dark: "#f08a70", dash: "4 2",
		rule: 37,
		settings: []string{"limit_queue", "envoy_update_ms", "envoy_min_rtt_interval_s", "envoy_request_count", "envoy_jitter_pct", "envoy_buffer_pct",
			"envoy_percentile", "envoy_min_concurrency", "envoy_max_concurrency"},
		declares: []Setting{
			setting("envoy_update_ms", "Envoy update interval", "ms, ", "100", Real, 0, maxMS, true, "the window between limit updates, ms"),
			setting("envoy_min_rtt_interval_s", "Envoy minRTT interval", "s, ", "60", Real, 0, maxDuration, true, "the time between measurements of the minimum round trip, s"),
			setting("envoy_request_count", "Envoy minRTT requests", "", "50", Whole, 1, maxLimit, false, "the requests a measurement of the minimum round trip aggregates"),
			setting("envoy_jitter_pct", "Envoy jitter", "%, ", "15", Real, 0, 100, true, "each measurement is delayed by up to this share of the interval, percent"),
			setting("envoy_buffer_pct", "Envoy buffer", "%, ", "25", Real, 0, 1000, true, "the buffer on the minimum round trip, percent"),
			setting("envoy_percentile", "Envoy percentile", "", "50", Real, 0, 100, true, "the latency percentile a window aggregates to"),
			setting("envoy_min_concurrency", "Envoy min concurrency", "", "3", Whole, 1, maxLimit, false, "the limit while measuring the minimum round trip, and its least"),
			setting("envoy_max_concurrency", "Envoy max concurrency", "", "1000", Whole, 1, maxLimit, false, "the most the limit climbs to"),
		},
		admit: admitLimit, take: takeOldest, shed: shedNothing,
		limiter: func(c Config) limiter {
			s := c.EnvoySettings
			l := &envoyLimit{
				update:     ms(orReal(s.EnvoyUpdateMS, envoyUpdateMS)),
				intervalMS: int64(math.Round(orReal(s.EnvoyMinRTTIntervalS, envoyMinRTTIntervalS) * 1000)),
				count:      orInt(s.EnvoyRequestCount, envoyRequestCount),
				jitter:     orReal(s.EnvoyJitterPct, envoyJitterPct) / 100,
				buffer:     orReal(s.EnvoyBufferPct, envoyBufferPct) / 100,
				percentile: orReal(s.EnvoyPercentile, envoyPercentile) / 100,
				min:        orInt(s.EnvoyMinConcurrency, envoyMinConcurrency),
				max:        orInt(s.EnvoyMaxConcurrency, envoyMaxConcurrency),
				random:     newStream(c.Seed, streamLimiter),
				calcAt:     math.MaxInt64,
			}
			l.now = l.min
			l.enterMinRTT(0)
			l.resetAt = l.update
			return l
		},
		validate: func(c Config, bad func(field, says string)) {
			s := c.EnvoySettings
			if lo, hi := orInt(s.EnvoyMinConcurrency, envoyMinConcurrency), orInt(s.EnvoyMaxConcurrency, envoyMaxConcurrency); lo > hi && s.EnvoyMinConcurrency >= 0 && s.EnvoyMaxConcurrency >= 0 {
				bad("envoy_min_concurrency", "it is above the most the limit may climb to, {envoy_max_concurrency}: give a min of at most the max, or a larger {envoy_max_concurrency}")
			}
		},
		samples: []Sample{
			{"envoy-adaptive", "The sale behind Envoy's adaptive concurrency", "The shop's sale behind Envoy's adaptive concurrency filter at its documented settings: it measures the minimum round trip with the limit pinned at 3, then scales the limit by the buffered minimum over each 100 ms window's p50, plus its square root as headroom.",
				withPolicy(Envoy, func(*Config) {})},
		},
	})
}

// envoyLimit is GradientController (rule 37): the limit, the state of the
// minimum round trip's measurement, the window's latencies, and the two
// timers, each when it next fires, ns (math.MaxInt64 for off).
type envoyLimit struct {
	update, intervalMS int64 // the window, ns; the measurement interval, ms
	count              int
	jitter, buffer     float64 // shares
	percentile         float64 // a share
	min, max           int
	now                int     // concurrency_limit_
	deferred           int     // deferred_limit_value_: 0 outside a measurement
	minRTT, sampleRTT  int64   // µs
	window             []int64 // the latencies since the last reset, µs
	epoch              int64   // min_rtt_epoch_, ns: samples admitted before it are disregarded
	consecutive        int     // consecutive_min_concurrency_set_
	resetAt, calcAt    int64   // sample_reset_timer_, min_rtt_calc_timer_
	random             stream
	// measurements counts the measurements of the minimum round trip
	// begun, the first at the run's start, and measuredNS the time of
	// those that ended, ns, for the Result (rule 38)
	measurements int
	measuredNS   int64
}

func (l *envoyLimit) limit() int { return l.now }

func (l *envoyLimit) due() int64 { return min(l.resetAt, l.calcAt) }

// measuring is inMinRTTSamplingWindow.
func (l *envoyLimit) measuring() bool { return l.deferred > 0 }

func (l *envoyLimit) measured(now int64) (count int, ns int64, limit int) {
	ns = l.measuredNS
	if l.measuring() {
		ns += now - l.epoch
	}
	return l.measurements, ns, l.min
}

// tick runs the timers due at now: the minimum round trip's, then the
// window's reset.
func (l *envoyLimit) tick(now int64) {
	if l.calcAt <= now {
		l.calcAt = math.MaxInt64
		l.enterMinRTT(now)
	}
	if l.resetAt <= now {
		l.resetAt = math.MaxInt64
		if l.measuring() {
			return // not re-armed: the measurement's end arms it
		}
		if len(l.window) > 0 {
			l.sampleRTT = l.quantileAndClear()
			l.set(l.newLimit(), now)
		}
		l.resetAt = now + l.update
	}
}

// enterMinRTT is enterMinRTTSamplingWindow: the limit is pinned to the
// least while the minimum round trip is measured afresh.
func (l *envoyLimit) enterMinRTT(now int64) {
	if l.measuring() {
		return
	}
	l.deferred = l.now
	l.set(l.min, now)
	l.window = l.window[:0]
	l.epoch = now
	l.measurements++
}

// sample is recordLatencySample: a request admitted before the
// measurement began is disregarded; else its latency, in whole µs, joins
// the window, and the request that completes a measurement ends it.
func (l *envoyLimit) sample(now, start int64, _ int, _ bool) {
	if start < l.epoch {
		return
	}
	l.window = append(l.window, (now-start)/1000)
	if l.measuring() && len(l.window) >= l.count {
		l.minRTT = l.quantileAndClear()
		l.set(l.deferred, now)
		l.deferred = 0
		l.measuredNS += now - l.epoch
		l.calcAt = now + l.withJitter()*1e6
		l.resetAt = now + l.update
	}
}

// withJitter is applyJitter: the interval, ms, plus a draw below
// ceil(interval x jitter) ms.
func (l *envoyLimit) withJitter() int64 {
	if l.jitter == 0 {
		return l.intervalMS
	}
	span := uint64(math.Ceil(float64(l.intervalMS) * l.jitter))
	return l.intervalMS + int64(l.random.Uint64()%span)
}

// quantileAndClear is processLatencySamplesAndClear: the window's
// percentile, µs, as its nearest rank, and a fresh window.
func (l *envoyLimit) quantileAndClear() int64 {
	slices.Sort(l.window)
	k := int(math.Ceil(l.percentile*float64(len(l.window)))) - 1
	q := l.window[min(max(k, 0), len(l.window)-1)]
	l.window = l.window[:0]
	return q
}

// newLimit is calculateNewLimit: the gradient of the buffered minimum
// round trip over the window's, within [0.5, 2], times the limit, plus
// its square root as headroom, truncated, within [min, max].
func (l *envoyLimit) newLimit() int {
	buffered := float64(l.minRTT) + float64(float64(l.minRTT)*l.buffer)
	g := max(0.5, min(2.0, buffered/float64(l.sampleRTT)))
	limit := float64(float64(l.now) * g)
	n := int(limit + math.Sqrt(limit))
	return max(l.min, min(l.max, n))
}

// set is updateConcurrencyLimit: five windows in a row that set the least
// limit outside a measurement start one at once.
func (l *envoyLimit) set(n int, now int64) {
	old := l.now
	l.now = n
	if !l.measuring() && old == l.min && n == l.min {
		l.consecutive++
	} else {
		l.consecutive = 0
	}
	if l.consecutive >= envoyConsecutiveMin {
		l.calcAt = now
	}
}
