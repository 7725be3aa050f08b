package sim

import "math"

// Vegas is Netflix's Vegas limit (rule 35), after TCP Vegas: it keeps the
// least round trip it has seen as the time of a request with no queue
// (probing for it afresh now and then), estimates the queue as the limit
// times the share of each round trip that is waiting, and grows the limit
// while that queue is short and shrinks it when it is long.
const Vegas Policy = 7

// VegasSettings are the settings of the Vegas limit (rule 35), which
// Config embeds. Each 0 stands for the library's default.
type VegasSettings struct {
	// VegasInitialLimit is the limit before the first sample, in requests
	// in flight (0: 20, initialLimit).
	VegasInitialLimit int `json:"vegas_initial_limit,omitempty"`
	// VegasMaxLimit is the most the limit climbs to (0: 1,000,
	// maxConcurrency).
	VegasMaxLimit int `json:"vegas_max_limit,omitempty"`
	// VegasSmoothing is the share of each new estimate the limit takes,
	// above 0 and at most 1 (0: 1, smoothing).
	VegasSmoothing float64 `json:"vegas_smoothing,omitempty"`
	// VegasProbe is how many samples, times the limit, pass between
	// probes of the least round trip, before a jitter of 0.5 to 1 (0: 30,
	// probeMultiplier).
	VegasProbe int `json:"vegas_probe,omitempty"`
}

// The Vegas limit's defaults, from VegasLimit.Builder.
const (
	vegasInitial   = 20
	vegasMax       = 1000
	vegasSmoothing = 1.0
	vegasProbe     = 30
)

func init() {
	definePolicy(Vegas, policySpec{
		key: "vegas", title: "Vegas limit (Netflix)", short: "Vegas", noun: "Netflix's Vegas limit",
		light: "#6b4e16", dark: "#d9b36c", dash: "1 3",
		rule:     35,
		settings: []string{"limit_queue", "vegas_initial_limit", "vegas_max_limit", "vegas_smoothing", "vegas_probe"},
		declares: []Setting{
			{Key: "vegas_initial_limit", Group: GroupAdvanced, Label: "Vegas initial limit", Unit: "in flight, 0 = 20", Kind: Whole, Min: 1, Max: maxLimit, Zero: "20",
				Owner: policy, validatedHere: true, Help: "Vegas limit: the limit before the first sample, requests in flight (0: Netflix's 20)"},
			{Key: "vegas_max_limit", Group: GroupAdvanced, Label: "Vegas max limit", Unit: "in flight, 0 = 1000", Kind: Whole, Min: 1, Max: maxLimit, Zero: "1000",
				Owner: policy, validatedHere: true, Help: "Vegas limit: the most the limit climbs to (0: Netflix's 1,000)"},
			{Key: "vegas_smoothing", Group: GroupAdvanced, Label: "Vegas smoothing", Unit: "0 = 1", Kind: Real, Min: 0, Max: 1, MinOpen: true, Zero: "1",
				Owner: policy, validatedHere: true, Help: "Vegas limit: the share of each new estimate the limit takes, above 0 to 1 (0: Netflix's 1)"},
			{Key: "vegas_probe", Group: GroupAdvanced, Label: "Vegas probe", Unit: "samples per limit, 0 = 30", Kind: Whole, Min: 1, Max: maxLimit, Zero: "30",
				Owner: policy, validatedHere: true, Help: "Vegas limit: samples, times the limit and a jitter of 0.5 to 1, between probes of the least round trip (0: Netflix's 30)"},
		},
		admit: admitLimit, take: takeOldest, shed: shedNothing,
		limiter: func(c Config) limiter {
			s := c.VegasSettings
			l := &vegasLimit{
				estimate:  float64(orInt(s.VegasInitialLimit, vegasInitial)),
				max:       orInt(s.VegasMaxLimit, vegasMax),
				smoothing: orReal(s.VegasSmoothing, vegasSmoothing),
				probe:     orInt(s.VegasProbe, vegasProbe),
				jitter:    newStream(c.Seed, streamLimiter),
			}
			l.resetProbe()
			return l
		},
		samples: []Sample{
			{"vegas", "The sale behind Netflix's Vegas limit", "The shop's sale behind the Vegas limit, Netflix's default: it takes the least round trip it has seen for a request with no queue, and holds the queue it estimates between 3 and 6 requests per power of ten of its limit.",
				withPolicy(Vegas, func(*Config) {})},
		},
	})
}

// log10Root is Netflix's Log10RootIntFunction: the whole part of log10(n),
// at least 1; in integers, so that it is the same on every platform.
func log10Root(n int) int {
	d := 0
	for n >= 10 {
		n /= 10
		d++
	}
	return max(1, d)
}

// vegasLimit is VegasLimit's rule (rule 35).
type vegasLimit struct {
	estimate  float64 // estimatedLimit, requests
	max       int
	smoothing float64
	probe     int     // probeMultiplier
	noLoad    int64   // rtt_noload, ns; 0 until the first sample
	count     int     // samples since the last probe
	jitterNow float64 // in [0.5, 1)
	jitter    stream
}

func (l *vegasLimit) limit() int { return int(l.estimate) }

// resetProbe draws the probe's jitter, uniform in [0.5, 1), as
// ThreadLocalRandom.nextDouble(0.5, 1) does, from the limit's stream.
func (l *vegasLimit) resetProbe() { l.jitterNow = 0.5 + float64(l.jitter.Float64()*0.5) }

// sample is VegasLimit._update and updateEstimatedLimit. A round trip of
// no time at all, which the library refuses with an exception, is no
// sample.
func (l *vegasLimit) sample(now, start int64, inflight int, dropped bool) {
	rtt := now - start
	if rtt <= 0 {
		return
	}
	l.count++
	if float64(float64(l.jitterNow*float64(l.probe))*l.estimate) <= float64(l.count) { // shouldProbe
		l.resetProbe()
		l.count = 0
		l.noLoad = rtt
		return
	}
	if l.noLoad == 0 || rtt < l.noLoad {
		l.noLoad = rtt
		return
	}
	est := l.estimate
	queue := int(math.Ceil(float64(est * (1 - float64(l.noLoad)/float64(rtt)))))
	var next float64
	switch whole := int(est); {
	case dropped:
		next = est - float64(log10Root(whole))
	case float64(inflight*2) < est: // no upward drift far from the limit
		return
	default:
		alpha, beta, threshold := 3*log10Root(whole), 6*log10Root(whole), log10Root(whole)
		switch {
		case queue <= threshold:
			next = est + float64(beta)
		case queue < alpha:
			next = est + float64(log10Root(whole))
		case queue > beta:
			next = est - float64(log10Root(whole))
		default:
			return
		}
	}
	next = max(1, min(float64(l.max), next))
	l.estimate = float64((1-l.smoothing)*est) + float64(l.smoothing*next)
}
