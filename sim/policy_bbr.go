package sim

import (
	"math"
	"slices"

	"github.com/shedsim/shedsim/sim/internal/limits"
)

// BBR is the CPU-gated "BBR" limiter of go-kratos/aegis, with go-zero's
// adaptive shedder as a variant (rule 39): while the service's CPU,
// here the share of the worker time spent busy over each sampling
// period, smoothed as the library smooths its reading, is over a threshold, or for a second after, it refuses a
// request when more are in flight than the most requests passed in a
// bucket times the least average latency of a bucket allows.
const BBR Policy = 10

// BBRRule is which library's rule the BBR limit follows (rule 39). The
// zero value is BBRKratos.
type BBRRule int

const (
	// BBRKratos is go-kratos/aegis's ratelimit/bbr.
	BBRKratos BBRRule = iota
	// BBRGoZero is go-zero's core/load adaptive shedder.
	BBRGoZero
)

var bbrRuleKeys = keys{
	typ:    "BBRRule",
	noun:   "BBR rule",
	names:  []string{"kratos", "gozero"},
	titles: []string{"Kratos (aegis ratelimit/bbr)", "go-zero (core/load adaptive shedder)"},
}

// String returns the rule's key, as used in JSON, URLs and flags.
func (r BBRRule) String() string { return bbrRuleKeys.name(int(r)) }

// MarshalText encodes the rule as its key.
func (r BBRRule) MarshalText() ([]byte, error) { return bbrRuleKeys.marshal(int(r)) }

// UnmarshalText decodes a rule from its key, ignoring case and spaces.
func (r *BBRRule) UnmarshalText(b []byte) error {
	i, err := bbrRuleKeys.parse(string(b))
	if err != nil {
		return err
	}
	*r = BBRRule(i)
	return nil
}

// BBRSettings are the settings of the BBR limit (rule 39), which Config
// embeds. Each 0 stands for the chosen library's default.
type BBRSettings struct {
	// BBRRule chooses Kratos's rule (the default) or go-zero's.
	BBRRule BBRRule `json:"bbr_rule,omitempty"`
	// BBRWindowS is the window of buckets, s (0: 10, Kratos's Window;
	// go-zero's 5, defaultWindow).
	BBRWindowS float64 `json:"bbr_window_s,omitempty"`
	// BBRBuckets is the buckets in the window (0: 100, Kratos's Bucket;
	// go-zero's 50, defaultBuckets): 100 ms each by default.
	BBRBuckets int `json:"bbr_buckets,omitempty"`
	// BBRCPUThresholdPct is the CPU over which it sheds, percent (0: 80,
	// Kratos's CPUThreshold 800‰; go-zero's 90, defaultCpuThreshold).
	BBRCPUThresholdPct float64 `json:"bbr_cpu_threshold_pct,omitempty"`
	// BBRCPUPeriodMS is how often the CPU is sampled, ms (0: 500,
	// Kratos's cpuproc ticker; go-zero's 250, cpuRefreshInterval).
	BBRCPUPeriodMS float64 `json:"bbr_cpu_period_ms,omitempty"`
	// BBRCPUDecay is the weight of the previous smoothed CPU in each new
	// one (0: 0.95, Kratos's decay and go-zero's beta).
	BBRCPUDecay float64 `json:"bbr_cpu_decay,omitempty"`
	// BBRCoolOffMS is how long it keeps shedding after the CPU falls, ms
	// (0: 1000, both libraries).
	BBRCoolOffMS float64 `json:"bbr_cool_off_ms,omitempty"`
	// BBRFlyingBeta is go-zero's smoothing of the requests in flight
	// (0: 0.9, flyingBeta); Kratos's rule has none.
	BBRFlyingBeta float64 `json:"bbr_flying_beta,omitempty"`
	// BBRMinRTMS is go-zero's least average latency for a window without
	// any, and the most it takes, ms (0: 1,000, defaultMinRt); Kratos's
	// rule has none.
	BBRMinRTMS float64 `json:"bbr_min_rt_ms,omitempty"`
	// BBROverloadFloor is the least go-zero's overload factor scales its
	// limit by (0: 0.1, overloadFactorLowerBound); Kratos's rule has none.
	BBROverloadFloor float64 `json:"bbr_overload_floor,omitempty"`
}

// bbrOnly is a setting of one rule alone: its key, and whether it is set.
type bbrOnly struct {
	key string
	set func(BBRSettings) bool
}

// bbrGoZeroOnly are the settings of go-zero's rule alone.
var bbrGoZeroOnly = []bbrOnly{
	{"bbr_flying_beta", func(s BBRSettings) bool { return s.BBRFlyingBeta != 0 }},
	{"bbr_min_rt_ms", func(s BBRSettings) bool { return s.BBRMinRTMS != 0 }},
	{"bbr_overload_floor", func(s BBRSettings) bool { return s.BBROverloadFloor != 0 }},
}

// The libraries' defaults (rule 39): Kratos's NewLimiter and cpuproc, and
// go-zero's adaptiveshedder.go and core/stat/usage.go.
const (
	bbrKratosWindowS   = 10
	bbrKratosBuckets   = 100
	bbrKratosThreshold = 80 // percent: CPUThreshold 800‰
	bbrKratosPeriodMS  = 500
	bbrGoZeroWindowS   = 5
	bbrGoZeroBuckets   = 50
	bbrGoZeroThreshold = 90 // percent: defaultCpuThreshold 900‰
	bbrGoZeroPeriodMS  = 250
	bbrDecay           = 0.95
	bbrCoolOffMS       = 1000
	bbrFlyingBeta      = 0.9
	bbrGoZeroMinRTMS   = 1000 // defaultMinRt: the least average latency of an empty window, and its most
	bbrGoZeroLeast     = 0.1  // overloadFactorLowerBound
	bbrOpen            = NoLimit
)

func init() {
	// zero is Kratos's default, the number 0 stands for; gozero go-zero's
	// where it differs
	setting := func(key, label, unit, zero, gozero string, kind Kind, lo, hi float64, loOpen, hiOpen bool, help string) Setting {
		owner := policy
		if slices.ContainsFunc(bbrGoZeroOnly, func(o bbrOnly) bool { return o.key == key }) {
			owner.Switch = "bbr_rule"
		}
		says := zero
		if gozero != "" {
			says += ", go-zero's rule " + gozero
		}
		u := "0 = " + says
		if unit != "" {
			u = unit + ", " + u
		}
		return Setting{Key: key, Group: GroupAdvanced, Label: label, Unit: u, Kind: kind, Min: lo, Max: hi, MinOpen: loOpen, MaxOpen: hiOpen, Zero: zero,
			Owner: owner, validatedHere: true, Help: "BBR limit: " + help + " (0: " + says + ")"}
	}
	definePolicy(BBR, policySpec{
		key: "bbr", title: "BBR limit (Kratos, go-zero)", short: "BBR", noun: "the CPU-gated BBR limit",
		light: "#4d4d4d", dark: "#c8c8c8", dash: "8 3 2 3",
		rule: 39,
		settings: []string{"limit_queue", "bbr_rule", "bbr_window_s", "bbr_buckets", "bbr_cpu_threshold_pct", "bbr_cpu_period_ms",
			"bbr_cpu_decay", "bbr_cool_off_ms", "bbr_flying_beta", "bbr_min_rt_ms", "bbr_overload_floor"},
		declares: []Setting{
			setting("bbr_window_s", "BBR window", "s", "10", "5", Real, 0, maxDuration, true, false, "the window of buckets the most passed and the least latency are taken over, s"),
			setting("bbr_buckets", "BBR buckets", "", "100", "50", Whole, 1, 100_000, false, false, "the buckets in the window, each at least 1 ms"),
			setting("bbr_cpu_threshold_pct", "BBR CPU threshold", "%", "80", "90", Real, 0, 100, true, true, "it sheds while the smoothed share of workers busy is at least this, percent"),
			setting("bbr_cpu_period_ms", "BBR CPU period", "ms", "500", "250", Real, 0, maxMS, true, false, "how often the share of workers busy is sampled, ms"),
			setting("bbr_cpu_decay", "BBR CPU decay", "", "0.95", "", Real, 0, 1, true, true, "the weight of the previous smoothed CPU in each new one"),
			setting("bbr_cool_off_ms", "BBR cool-off", "ms", "1000", "", Real, 0, maxMS, true, false, "how long it keeps shedding after the CPU falls, ms"),
			setting("bbr_flying_beta", "BBR flying beta", "", "0.9", "", Real, 0, 1, true, true, "go-zero's rule: the weight of the previous smoothed requests in flight in each new one"),
			setting("bbr_min_rt_ms", "BBR least latency cap", "ms", "1000", "", Real, 0, maxMS, true, false, "go-zero's rule: the least average latency of a window without any, and the most it takes, ms"),
			setting("bbr_overload_floor", "BBR overload floor", "", "0.1", "", Real, 0, 1, true, false, "go-zero's rule: the least the overload factor scales the limit by"),
		},
		validate: func(c Config, bad func(field, says string)) {
			s := c.BBRSettings
			if s.BBRRule != BBRGoZero {
				for _, o := range bbrGoZeroOnly {
					if o.set(s) {
						bad(o.key, "it is a setting of go-zero's rule, which Kratos's has not: set {bbr_rule} to gozero, or give 0")
					}
				}
			}
			if s.BBRWindowS <= 0 && s.BBRWindowS != 0 || s.BBRBuckets < 0 {
				return // refused by their ranges
			}
			w, n := bbrWindow(s)
			if d := w / int64(n); d < 1e6 {
				bad("bbr_buckets", limits.Count(int64(n))+" buckets in the window make each shorter than 1 ms: give at most "+
					limits.Count(max(1, w/1e6))+", or a longer {bbr_window_s}")
			}
		},
		admit: admitLimit, take: takeOldest, shed: shedNothing,
		limiter: func(c Config) limiter {
			s := c.BBRSettings
			gz := s.BBRRule == BBRGoZero
			w, n := bbrWindow(s)
			l := &bbrLimit{
				gozero:     gz,
				bucket:     w / int64(n),
				size:       n,
				threshold:  int64(math.Round(orReal(s.BBRCPUThresholdPct, pick(gz, bbrGoZeroThreshold, bbrKratosThreshold)) * 10)),
				period:     ms(orReal(s.BBRCPUPeriodMS, pick(gz, bbrGoZeroPeriodMS, bbrKratosPeriodMS))),
				decay:      orReal(s.BBRCPUDecay, bbrDecay),
				coolOff:    ms(orReal(s.BBRCoolOffMS, bbrCoolOffMS)),
				beta:       orReal(s.BBRFlyingBeta, bbrFlyingBeta),
				minRTCap:   orReal(s.BBRMinRTMS, bbrGoZeroMinRTMS),
				floor:      orReal(s.BBROverloadFloor, bbrGoZeroLeast),
				dropAt:     -1,
				overloadAt: -1,
			}
			l.period = max(1, l.period)
			l.nextCPU = l.period
			l.pass = make([]int64, n)
			l.rtSum = make([]int64, n)
			l.rtCount = make([]int64, n)
			l.reduce()
			l.now = bbrOpen
			return l
		},
		samples: []Sample{
			{"bbr-gozero", "The sale behind go-zero's adaptive shedder", "The shop's sale behind go-zero's adaptive shedder at its defaults: once the share of workers busy, smoothed every 250 ms, reaches 90%, and for a second after it was last seen there, it refuses a request when both the requests in flight and their smoothed count exceed the most passed in a 100 ms bucket times the least bucket's average latency, scaled down as the CPU climbs.",
				withPolicy(BBR, func(c *Config) { c.BBRRule = BBRGoZero })},
			{"bbr", "The sale behind Kratos's BBR limit", "The shop's sale behind go-kratos's BBR limiter at its defaults: once the share of workers busy, smoothed as Kratos smooths its CPU reading every 500 ms, reaches 80%, it refuses a request when more are in flight than the most passed in a 100 ms bucket times the least bucket's average latency allows, and keeps doing so for a second after the first refusal.",
				withPolicy(BBR, func(*Config) {})},
		},
	})
}

// pick is a when c, else b: the default of go-zero's rule or Kratos's.
func pick(c bool, a, b float64) float64 {
	if c {
		return a
	}
	return b
}

// bbrWindow is the window, ns, and its buckets, for the chosen rule.
func bbrWindow(s BBRSettings) (int64, int) {
	gz := s.BBRRule == BBRGoZero
	w := int64(math.Round(orReal(s.BBRWindowS, pick(gz, bbrGoZeroWindowS, bbrKratosWindowS)) * 1e9))
	n := orInt(s.BBRBuckets, int(pick(gz, bbrGoZeroBuckets, bbrKratosBuckets)))
	return w, n
}

// bbrLimit is Kratos's BBR.shouldDrop, or go-zero's
// adaptiveShedder.shouldDrop (rule 39): the buckets, the smoothed CPU and
// the state of the cool-off.
type bbrLimit struct {
	gozero    bool
	bucket    int64 // a bucket's length, ns
	size      int   // the buckets in the window
	threshold int64 // ‰
	period    int64 // the CPU's sampling period, ns
	decay     float64
	coolOff   int64 // ns
	beta      float64
	minRTCap  float64 // go-zero's defaultMinRt, ms
	floor     float64 // go-zero's overloadFactorLowerBound
	// the buckets, a ring by absolute index (time / bucket): passes,
	// and the latencies' sum and count, ms
	pass, rtSum, rtCount []int64
	cur                  int64 // the current bucket's index
	// the most passed in a bucket and the least average latency, ms
	// (MaxFloat64 for none), over the window's buckets before the
	// current one
	maxPass int64
	minAvg  float64
	// the smoothed CPU, ‰, and when it is next sampled, ns
	cpu, nextCPU int64
	// the worker time busy and present from the start to a time, ns, and
	// both as the last sample took them
	worked                func(t int64) (busy, present int64)
	lastBusy, lastPresent int64
	usage                 int64       // the last reading, ‰
	state                 *limitState // for the requests in flight (go-zero)
	// Kratos's prevDropTime (-1: none); go-zero's overloadTime (-1:
	// none), droppedRecently and avgFlying
	dropAt     int64
	overloadAt int64
	dropped    bool
	avgFlying  float64
	gated      bool // the CPU, or the cool-off, lets it shed
	now        int  // the limit: bbrOpen while it does not shed
}

// watch is told how to read the worker time busy and present, and the
// requests in flight.
func (l *bbrLimit) watch(s *limitState, worked func(t int64) (busy, present int64)) {
	l.state, l.worked = s, worked
}

func (l *bbrLimit) limit() int { return l.now }

func (l *bbrLimit) due() int64 { return min(l.nextCPU, (l.cur+1)*l.bucket) }

// tick samples the CPU when due (cpuproc's or usage.go's ticker): the
// share of the worker time present since the last sample that was spent
// busy, as the libraries read the process's CPU time over the period,
// in ‰ (truncated). Kratos's reader keeps its last reading when a new
// one is 0 (internal/cpu/stat.go stores only u != 0). It rolls the
// buckets on, and sets the limit as an arrival would find it.
func (l *bbrLimit) tick(now int64) {
	for now >= l.nextCPU {
		usage := int64(0)
		if l.worked != nil {
			busy, present := l.worked(now)
			if d := present - l.lastPresent; d > 0 {
				usage = min(1000, (busy-l.lastBusy)*1000/d)
			}
			l.lastBusy, l.lastPresent = busy, present
		}
		if usage == 0 && !l.gozero {
			usage = l.usage
		}
		l.usage = usage
		l.cpu = int64(float64(l.cpu)*l.decay + float64(usage)*(1-l.decay))
		l.nextCPU += l.period
	}
	l.roll(now)
	l.gated = l.cpu >= l.threshold || l.hot(now)
	l.set()
}

// hot is the cool-off, as a look that changes nothing.
func (l *bbrLimit) hot(now int64) bool {
	if l.gozero {
		return l.dropped && l.overloadAt >= 0 && now-l.overloadAt < l.coolOff
	}
	return l.dropAt >= 0 && now-l.dropAt <= l.coolOff
}

// arrive is the check each arrival makes before its admission: Kratos's
// shouldDrop clears prevDropTime once the CPU is under the threshold
// and the cool-off has passed; go-zero's systemOverloaded notes the
// time the CPU is seen over it, and stillHot clears droppedRecently
// once the cool-off has passed.
func (l *bbrLimit) arrive(now int64) {
	l.roll(now)
	over := l.cpu >= l.threshold
	switch {
	case over:
		l.gated = true
		if l.gozero {
			l.overloadAt = now
		}
	case l.gozero:
		l.gated = false
		if l.dropped && l.overloadAt >= 0 {
			if now-l.overloadAt < l.coolOff {
				l.gated = true
			} else {
				l.dropped = false
			}
		}
	default:
		l.gated = false
		if l.dropAt >= 0 {
			if now-l.dropAt <= l.coolOff {
				l.gated = true
			} else {
				l.dropAt = -1
			}
		}
	}
	l.set()
}

// refused is the limit refusing an arrival at now: Kratos notes when its
// dropping began, if the CPU is over the threshold and it had not;
// go-zero notes that it dropped recently.
func (l *bbrLimit) refused(now int64) {
	if l.gozero {
		l.dropped = true
	} else if l.cpu >= l.threshold && l.dropAt < 0 {
		l.dropAt = now
	}
}

// sample is the request's done function: Kratos adds its latency, ms
// rounded up, if above 0, and a pass; go-zero's Pass adds both, and its
// Fail neither, and both smooth the requests in flight as they left.
func (l *bbrLimit) sample(now, start int64, _ int, dropped bool) {
	l.roll(now)
	rt := int64(math.Ceil(float64(now-start) / 1e6))
	k := int(l.cur % int64(l.size))
	if l.gozero {
		if l.state != nil {
			l.avgFlying = l.avgFlying*l.beta + float64(l.state.inFlight)*(1-l.beta)
		}
		if !dropped {
			l.rtSum[k] += rt
			l.rtCount[k]++
			l.pass[k]++
		}
	} else {
		if rt > 0 {
			l.rtSum[k] += rt
			l.rtCount[k]++
		}
		l.pass[k]++
	}
	l.set()
}

// roll moves the current bucket on to now's, emptying the buckets it
// passes. Moving on by one bucket, the window gains the bucket that was
// current and loses its oldest: the most passed and the least average
// change by those two alone, unless the one lost held either, when the
// window is reduced again.
func (l *bbrLimit) roll(now int64) {
	k := now / l.bucket
	if k == l.cur {
		return
	}
	if k == l.cur+1 && l.size > 1 {
		in, out := int(l.cur%int64(l.size)), int(k%int64(l.size)) // out is the bucket k reuses
		inAvg, inRT := l.avg(in)
		outAvg, outRT := l.avg(out)
		rescan := l.cur-int64(l.size)+1 >= 0 && (l.pass[out] >= l.maxPass && l.pass[in] < l.pass[out] ||
			outRT && outAvg <= l.minAvg && !(inRT && inAvg <= outAvg))
		l.pass[out], l.rtSum[out], l.rtCount[out] = 0, 0, 0
		l.cur = k
		if rescan {
			l.reduce()
			return
		}
		l.maxPass = max(l.maxPass, l.pass[in])
		if inRT {
			l.minAvg = min(l.minAvg, inAvg)
		}
		return
	}
	for j, n := l.cur+1, 0; j <= k && n < l.size; j, n = j+1, n+1 {
		i := int(j % int64(l.size))
		l.pass[i], l.rtSum[i], l.rtCount[i] = 0, 0, 0
	}
	l.cur = k
	l.reduce()
}

// avg is bucket i's average latency, ms, as the rule takes it (go-zero
// rounds it), and whether it has any.
func (l *bbrLimit) avg(i int) (float64, bool) {
	if l.rtCount[i] == 0 {
		return 0, false
	}
	a := float64(l.rtSum[i]) / float64(l.rtCount[i])
	if l.gozero {
		a = math.Round(a)
	}
	return a, true
}

// reduce takes the most passed and the least average latency over the
// window's buckets before the current one (Kratos's loop from i = 1
// while i < Bucket; go-zero's IgnoreCurrentBucket).
func (l *bbrLimit) reduce() {
	l.maxPass, l.minAvg = 1, math.MaxFloat64
	for j := max(0, l.cur-int64(l.size)+1); j < l.cur; j++ {
		i := int(j % int64(l.size))
		l.maxPass = max(l.maxPass, l.pass[i])
		if a, ok := l.avg(i); ok {
			l.minAvg = min(l.minAvg, a)
		}
	}
}

// minRT is the least average latency as each rule takes it, ms: Kratos's
// int64(math.Ceil(min)), and 1 where that is not above 0 (a window
// without latencies converts MaxFloat64, which amd64 makes negative);
// go-zero's from 1,000 ms down.
func (l *bbrLimit) minRT() float64 {
	if l.gozero {
		return min(l.minRTCap, l.minAvg)
	}
	if l.minAvg == math.MaxFloat64 {
		return 1
	}
	return max(1, math.Ceil(l.minAvg))
}

// set is the limit as the next arrival finds it: open unless the CPU or
// the cool-off lets it shed; then Kratos's admits while in flight is at
// most max(1, maxInFlight), and go-zero's while it is at most
// maxFlight x overloadFactor, or while its smoothed in flight is.
func (l *bbrLimit) set() {
	l.now = bbrOpen
	if !l.gated {
		return
	}
	bucketsPerS := 1e9 / float64(l.bucket)
	if l.gozero {
		m := max(1, float64(l.maxPass)*l.minRT()*bucketsPerS/1000)
		factor := (1000 - float64(l.cpu)) / (1000 - float64(l.threshold))
		m *= min(1, max(l.floor, factor))
		if l.avgFlying > m {
			l.now = int(math.Floor(m)) + 1
		}
		return
	}
	// maxInFlight: int64(math.Floor(maxPass x minRT x bucketPerSecond /
	// 1000) + 0.5), with bucketPerSecond int64(time.Second / bucket).
	perS := int64(1e9 / l.bucket)
	n := int64(math.Floor(float64(l.maxPass*int64(l.minRT())*perS)/1000) + 0.5)
	l.now = int(min(max(1, n), bbrOpen-1)) + 1
}
