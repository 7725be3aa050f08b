package sim

import (
	"math"
	"strconv"
	"strings"

	"github.com/shedsim/shedsim/sim/internal/limits"
)

// MaxHops is the most services a chain may hold, the entry included.
const MaxHops = 4

// Hop is a service behind the entry (rule 40): the one the hop before it
// calls, with a proxy in front of it that retries on the caller's behalf.
// A worker of the hop before is held for the whole call, retries
// included. A hop reads the entry's settings for what it does not set
// itself: its policy's own settings, the refusal's cost, the order share,
// the seed.
type Hop struct {
	// Name is the hop as the chain's drawing and tables label it
	// ("payments"): letters, digits, dashes and underscores, up to
	// MaxHopName characters.
	Name string `json:"name"`
	// Workers and ServiceMS are the hop's workers and its own mean
	// service time, ms, before any call it makes itself.
	Workers   int     `json:"workers"`
	ServiceMS float64 `json:"service_ms"`
	// Service and ServiceP99MS are its service times' shape (rule 3a).
	Service      ServiceShape `json:"service,omitempty"`
	ServiceP99MS float64      `json:"service_p99_ms,omitempty"`
	// Policy is what it does with a request that does not fit (default
	// fifo), and Queue its bound for the policies with one (0 automatic).
	Policy Policy `json:"policy"`
	Queue  int    `json:"queue,omitempty"`
	// ErrorShare is the share of the hop's own answers that are errors
	// (a 503 after its service time), 0 to 1: a flaky dependency.
	ErrorShare float64 `json:"errors,omitempty"`
	// TimeoutMS is the caller's timeout on the whole call to this hop, ms,
	// its proxy's retries included.
	TimeoutMS float64 `json:"timeout_ms"`
	// Proxy is the retry policy of the proxy in front of it (default
	// none: no retries).
	Proxy Proxy `json:"proxy"`
}

// MaxHopName is the longest a hop's name may be, in characters.
const MaxHopName = 20

// ParseHops reads a chain's hops from its text (Config.Hops): a hop a line
// (or separated by ";"), its name, a colon, then key=value settings
// separated by spaces:
//
//	payments: workers=4 service_ms=50 timeout_ms=1000 proxy=envoy
//
// The hop's keys are workers, service_ms, service, service_p99_ms,
// policy, queue, errors and timeout_ms; workers, service_ms and
// timeout_ms are required. The proxy's are proxy (a preset: envoy, istio,
// linkerd, grpc or none, the default), read first wherever it is, then
// any of its settings (Proxy.set), which change the preset's. Blank lines
// and lines starting with # are skipped. An error names the line (of the
// text, counting every line), the hop and the key.
func ParseHops(text string) ([]Hop, error) {
	if len(text) > MaxTableBytes {
		return nil, &TableError{Msg: "the hops are " + limits.Count(int64(len(text))) + " bytes, over the " + limits.Count(MaxTableBytes) + " they may take"}
	}
	var hops []Hop
	type piece struct {
		text string
		line int
	}
	var pieces []piece
	for n, l := range strings.Split(text, "\n") {
		if strings.HasPrefix(strings.TrimSpace(l), "#") {
			continue
		}
		for p := range strings.SplitSeq(l, ";") {
			pieces = append(pieces, piece{p, n + 1})
		}
	}
	for _, p := range pieces {
		line := strings.TrimSpace(p.text)
		if line == "" {
			continue
		}
		where := func(msg string) error { return &TableError{Line: p.line, Col: 1, Msg: msg} }
		if len(hops) == MaxHops-1 {
			return nil, where("a chain holds at most " + strconv.Itoa(MaxHops) + " services, the entry and " + strconv.Itoa(MaxHops-1) + " hops: remove a hop")
		}
		name, rest, ok := strings.Cut(line, ":")
		name = strings.TrimSpace(name)
		if !ok || strings.Contains(name, "=") {
			return nil, where("a hop starts with its name and a colon, as in payments: workers=4 service_ms=50 timeout_ms=1000")
		}
		if msg := hopNameProblem(name); msg != "" {
			return nil, where(msg)
		}
		h := Hop{Name: name}
		h.Proxy, _ = ProxyPreset("none")
		about := "hop " + strconv.Itoa(len(hops)+1) + " (" + name + "): "
		given := map[string]bool{}
		// the preset first, wherever it is, so that the keys change it
		fields := strings.Fields(rest)
		for k, kv := range fields {
			if strings.HasPrefix(kv, "proxy=") {
				copy(fields[1:k+1], fields[:k])
				fields[0] = kv
				break
			}
		}
		for _, kv := range fields {
			k, v, ok := strings.Cut(kv, "=")
			if !ok || k == "" || v == "" {
				return nil, where(about + "\"" + kv + "\" is not key=value: write, say, workers=4")
			}
			if given[k] {
				return nil, where(about + k + " is given twice: keep one")
			}
			given[k] = true
			if err := h.set(k, v); err != nil {
				return nil, where(about + err.Error())
			}
		}
		for _, k := range []string{"workers", "service_ms", "timeout_ms"} {
			if !given[k] {
				return nil, where(about + "give its " + k + "=")
			}
		}
		if msg := h.Proxy.unread(given); msg != "" {
			return nil, where(about + msg)
		}
		for _, other := range hops {
			if other.Name == name {
				return nil, where(about + "another hop is named " + name + ": give each its own name")
			}
		}
		hops = append(hops, h)
	}
	return hops, nil
}

// hopNameProblem says what is wrong with a hop's name, "" for nothing.
func hopNameProblem(name string) string {
	switch {
	case name == "":
		return "a hop needs a name before its colon, such as payments"
	case len(name) > MaxHopName:
		return "the name " + name + " is over " + strconv.Itoa(MaxHopName) + " characters: shorten it"
	}
	for _, r := range name {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-' || r == '_') {
			return "the name " + name + " has " + strconv.QuoteRune(r) + ": use letters, digits, - and _"
		}
	}
	return ""
}

// set sets the hop's key to v, or the proxy's.
func (h *Hop) set(k, v string) error {
	num := func() (float64, error) {
		x, err := strconv.ParseFloat(v, 64)
		if err != nil || math.IsNaN(x) || math.IsInf(x, 0) {
			return 0, &hopKeyError{k, v + " is not a finite number: write one such as 50 or 0.5"}
		}
		return x, nil
	}
	whole := func() (int, error) {
		x, err := strconv.Atoi(v)
		if err != nil {
			return 0, &hopKeyError{k, v + " is not a whole number"}
		}
		return x, nil
	}
	var err error
	switch k {
	case "workers":
		h.Workers, err = whole()
	case "queue":
		h.Queue, err = whole()
	case "service_ms":
		h.ServiceMS, err = num()
	case "service_p99_ms":
		h.ServiceP99MS, err = num()
	case "errors":
		h.ErrorShare, err = num()
	case "timeout_ms":
		h.TimeoutMS, err = num()
	case "service":
		var s ServiceShape
		if s, err = ParseServiceShape(v); err == nil && s == HistogramService {
			err = &hopKeyError{k, "a hop's service times are exponential, lognormal or constant"}
		}
		h.Service = s
	case "policy":
		h.Policy, err = ParsePolicy(v)
	default:
		if !isProxyKey(k) {
			return &hopKeyError{k, "no such key for a hop: use workers, service_ms, service, service_p99_ms, policy, queue, errors or timeout_ms, " +
				"or a proxy's: proxy, " + strings.Join(proxyKeys, ", ")}
		}
		return h.Proxy.set(k, v)
	}
	if err != nil {
		if _, ok := err.(*hopKeyError); !ok {
			err = &hopKeyError{k, err.Error()}
		}
	}
	return err
}

// hopKeyError is a bad value for one of a hop's keys.
type hopKeyError struct{ key, msg string }

func (e *hopKeyError) Error() string { return e.key + ": " + e.msg }

// FormatHops writes hops as ParseHops reads them, a hop a line, giving
// each hop's keys that differ from their zero value (workers, service_ms
// and timeout_ms always).
func FormatHops(hops []Hop) string {
	var b []byte
	for k, h := range hops {
		if k > 0 {
			b = append(b, '\n')
		}
		b = append(b, h.Name...)
		b = append(b, ": workers="...)
		b = strconv.AppendInt(b, int64(h.Workers), 10)
		b = appendKey(b, "service_ms", h.ServiceMS, true)
		if h.Service != ExponentialService {
			b = append(b, " service="+h.Service.String()...)
		}
		b = appendKey(b, "service_p99_ms", h.ServiceP99MS, false)
		if h.Policy != FIFO {
			b = append(b, " policy="+h.Policy.String()...)
		}
		b = appendKey(b, "queue", float64(h.Queue), false)
		b = appendKey(b, "errors", h.ErrorShare, false)
		b = appendKey(b, "timeout_ms", h.TimeoutMS, true)
		b = h.Proxy.appendText(append(b, ' '))
		b = []byte(strings.TrimRight(string(b), " "))
	}
	return string(b)
}

// appendKey appends " key=x" to b, unless x is 0 and not always.
func appendKey(b []byte, key string, x float64, always bool) []byte {
	if x == 0 && !always {
		return b
	}
	b = append(b, ' ')
	b = append(b, key...)
	b = append(b, '=')
	return strconv.AppendFloat(b, x, 'g', -1, 64)
}

// HopList returns c's hops as ParseHops reads them, nil for none or for
// text it refuses (which Validate reports).
func (c Config) HopList() []Hop {
	if c.Hops == "" {
		return nil
	}
	h, err := ParseHops(c.Hops)
	if err != nil {
		return nil
	}
	return h
}

// hopConfig is the Config hop h of c runs as (rule 40): the entry's, less
// its people, its triggers and its client, with h's service and policy,
// and its proxy as the client whose tries h serves. Each try's timeout is
// the proxy's per-try timeout, or else the whole call's.
func (c Config) hopConfig(h Hop) Config {
	d := c.Resolved()
	d.Hops = ""
	d.Workers, d.ServiceMS, d.Service, d.ServiceP99MS, d.ServiceHistogram = h.Workers, h.ServiceMS, h.Service, h.ServiceP99MS, ""
	d.Policy, d.Queue = h.Policy, h.Queue
	// no people of its own, and the sale's window, as the entry's, for
	// who is the sale's: a call made in it
	d.NormalRPS, d.SaleRPS, d.Arrivals, d.ArrivalsScale, d.ArrivalsShiftS, d.SaleThresholdRPS = 0, 0, "", 0, 0, 0
	d.SaleRampS, d.SaleWaves, d.SaleEveryS = 0, 0, 0
	// the incidents strike the entry
	d.LossWorkers, d.LossStartS, d.LossS = 0, 0, 0
	d.SlowFactor, d.SlowStartS, d.SlowS, d.HeapRequests = 0, 0, 0, 0
	// the proxy is its client
	d.Patience, d.PatienceMS = NoPatience, 0
	d.Client, d.RetryDelayMS, d.RetryJitterMS = Fixed, 0, 0
	d.Retries = h.Proxy.Retries
	d.TimeoutMS = h.TimeoutMS
	if h.Proxy.PerTryTimeoutMS > 0 {
		d.TimeoutMS = h.Proxy.PerTryTimeoutMS
	}
	return d
}

// hopAttempts is the most tries each hop of c may receive when the entry
// is sent entry attempts: each layer's 1 + retries, multiplied (rule 40).
func (c Config) hopAttempts(entry float64) []float64 {
	var out []float64
	n := entry
	for _, h := range c.HopList() {
		n = h.Proxy.mostTries(n, c.DurationS)
		out = append(out, n)
	}
	return out
}

// mostTries is the most tries p sends for calls calls over a run of
// durationS seconds: each call's 1 + Retries; under gRPC's throttle (rule
// 44) no more than its tokens and a token_ratio of the calls; under
// Linkerd's budget, whose retries have no count of their own, its share
// of the calls (rule 43) and twice its reserve over the run, which
// tower's windows can let through.
func (p Proxy) mostTries(calls, durationS float64) float64 {
	most := float64(calls * float64(1+p.Retries))
	if p.Budget == GRPCThrottle {
		// a retry needs the tokens over half, each retried failure takes
		// one, and only a success, one a call at most, earns any back
		most = min(most, float64(calls*float64(1+p.TokenRatio))+float64(p.MaxTokens))
	}
	if p.Budget == LinkerdBudget {
		// a success deposits what pays for deposit/withdraw retries; the
		// reserve refills within a TTL, and tower's windows may let it
		// through once a half TTL: count it once more a half TTL, and once
		// more for the slots it may skip
		b := newLinkerdBudget(p)
		share := float64(p.Retries)
		if b.withdraw > 0 {
			share = min(share, float64(b.deposit)/float64(b.withdraw))
		}
		ttl := float64(max(p.TTLS, 1))
		reserve := float64(float64(p.MinRetriesPerS) * ttl)
		budgeted := float64(calls*float64(1+share)) + float64(reserve*float64(2+math.Ceil(2*durationS/ttl)))
		most = min(most, budgeted)
	}
	return most
}

// validateHops checks c's hops: their text, then each hop as the Config
// it runs as, and its proxy. Each message names the hop and its key.
func (c Config) validateHops(bad func(field, msg string)) {
	hops, err := ParseHops(c.Hops)
	if err != nil {
		bad("hops", err.Error())
		return
	}
	for k, h := range hops {
		about := "hop " + strconv.Itoa(k+1) + " (" + h.Name + "): "
		if h.Proxy.PerTryTimeoutMS > h.TimeoutMS && h.TimeoutMS > 0 {
			bad("hops", about+"per_try_timeout_ms: "+limits.Num(h.Proxy.PerTryTimeoutMS)+" ms is longer than the whole call's timeout_ms, "+
				limits.Num(h.TimeoutMS)+": use at most "+limits.Num(h.TimeoutMS)+", or 0 for none")
		}
		if !(h.ErrorShare >= 0 && h.ErrorShare <= 1) {
			bad("hops", about+"errors: "+limits.Num(h.ErrorShare)+" is not a share: use a number from 0 to 1")
		}
		h.Proxy.check(func(key, msg string) { bad("hops", about+key+": "+msg) })
		// the hop as it runs, with the call's timeout, then the per-try
		// timeout in its place, if any
		hc := c.hopConfig(h)
		hc.TimeoutMS = h.TimeoutMS
		for _, fe := range FieldErrors(hc.Validate()) {
			if fe.Field != "duration_s" && fe.Field != "seed" { // the entry's, checked as its own
				bad("hops", about+fe.Field+": "+fe.Msg)
			}
		}
		if h.Proxy.PerTryTimeoutMS > 0 {
			hc.TimeoutMS = h.Proxy.PerTryTimeoutMS
			for _, fe := range FieldErrors(hc.Validate()) {
				if fe.Field == "timeout_ms" {
					bad("hops", about+"per_try_timeout_ms: "+fe.Msg)
				}
			}
		}
	}
}

// refuseAmplification refuses a chain whose hops would receive more tries
// than the run's budget (MaxAttempts), naming the first hop that takes it
// over.
func (c Config) refuseAmplification(bad func(field, msg string)) {
	entry := c.entryAttempts()
	total := entry
	hops := c.HopList()
	for k, n := range c.hopAttempts(entry) {
		total += n
		if total > MaxAttempts {
			h := hops[k]
			bad("hops", "hop "+strconv.Itoa(k+1)+" ("+h.Name+") may receive about "+limits.Count(int64(n))+
				" tries, every layer's retries multiplied, and the chain about "+limits.Count(int64(c.ExpectedAttempts()))+
				" in all, over the budget of "+limits.Count(MaxAttempts)+" a run: lower its proxy's retries, or those above it, the traffic or the duration")
			return
		}
	}
}

// unread says which of the keys given p's backoff or budget does not read,
// and how to fix it; "" for none. A key the proxy would ignore is
// refused, not quietly dropped.
func (p Proxy) unread(given map[string]bool) string {
	readers := []struct {
		keys  []string
		reads bool
		what  string
	}{
		{[]string{"backoff_base_ms", "backoff_max_ms"}, p.Backoff != NoBackoff, "backoff=envoy or backoff=grpc"},
		{[]string{"backoff_multiplier"}, p.Backoff == GRPCBackoff, "backoff=grpc"},
		{[]string{"budget_percent", "min_retry_concurrency"}, p.Budget == EnvoyBudget, "budget=envoy"},
		{[]string{"max_retries"}, p.Budget == EnvoyMaxRetries, "budget=max-retries"},
		{[]string{"retry_ratio", "min_retries_per_s", "ttl_s"}, p.Budget == LinkerdBudget, "budget=linkerd"},
		{[]string{"max_tokens", "token_ratio"}, p.Budget == GRPCThrottle, "budget=grpc"},
	}
	for _, r := range readers {
		for _, k := range r.keys {
			if given[k] && !r.reads {
				return k + ": only " + r.what + " reads it, and this proxy's backoff is " + p.Backoff.String() +
					" and its budget " + p.Budget.String() + ": set " + r.what + " (or a proxy= preset with it), or remove " + k
			}
		}
	}
	return ""
}
