package sim

import (
	"encoding/binary"
	"math"
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// fuzzAttempts is the most attempts a fuzzed run is expected to send, so
// that each execution takes a few milliseconds.
const fuzzAttempts = 20_000

// fuzzTyped are the settings FuzzRun takes as values of their own types;
// every other setting (the clients' knobs, the adaptive limits', and any
// setting added later) is read from its extra bytes (fuzzRest), so that a
// new setting is fuzzed with no edit here and the corpus stays readable.
var fuzzTyped = []string{
	"policy", "workers", "service_ms", "normal_rps", "sale_rps", "sale_start_s", "sale_s", "duration_s",
	"timeout_ms", "retries", "retry_delay_ms", "retry_jitter_ms", "queue", "refusal_cost_ms", "order_share",
	"codel_target_ms", "codel_interval_ms", "client", "seed",
	"loss_workers", "loss_start_s", "loss_s", "slow_factor", "slow_start_s", "slow_s",
	"service", "service_p99_ms", "patience", "patience_ms",
	"sale_ramp_s", "sale_waves", "sale_every_s", "heap_requests", "series_step_s",
}

// fuzzRest sets c's settings that are not fuzzTyped, in the order of
// Settings, 8 bytes each, from rest: a whole number from the first 4 as a
// signed int32 (a choice's value too), a number from all 8 as a
// float64's bits, or from one byte, 0 to 255, standing for 0 (the
// default) up to the setting's range in 255 steps, or a choice's value,
// when the byte is all there is left. Settings past the bytes keep
// their values.
func fuzzRest(c *Config, rest []byte) {
	for _, s := range Settings() {
		if slices.Contains(fuzzTyped, s.Key) || len(rest) == 0 {
			continue
		}
		v := s.Of(c)
		if len(rest) < 8 {
			x := float64(rest[0]) / 255
			if s.Kind == Choice { // its values, and one past them
				v.SetInt(int64(rest[0]) % int64(len(s.Choices())+1))
			}
			rest = rest[1:]
			if s.Kind == Whole {
				v.SetInt(int64(x * math.Min(s.Max, 1e6)))
			} else if s.Kind == Real {
				v.SetFloat(x * s.Max)
			}
			continue
		}
		u := binary.LittleEndian.Uint64(rest)
		rest = rest[8:]
		switch s.Kind {
		case Whole, Choice:
			v.SetInt(int64(int32(u)))
		case Real:
			v.SetFloat(math.Float64frombits(u))
		}
	}
}

// fuzzRestOf is the bytes fuzzRest reads back into c's settings that are
// not fuzzTyped, for the seed corpus.
func fuzzRestOf(c Config) []byte {
	var b []byte
	for _, s := range Settings() {
		if slices.Contains(fuzzTyped, s.Key) {
			continue
		}
		v := s.Of(&c)
		switch s.Kind {
		case Whole, Choice:
			b = binary.LittleEndian.AppendUint64(b, uint64(uint32(int32(v.Int()))))
		case Real:
			b = binary.LittleEndian.AppendUint64(b, math.Float64bits(v.Float()))
		}
	}
	return b
}

// addFuzzConfig adds c to FuzzRun's seed corpus: its typed settings and
// the bytes of the rest.
func addFuzzConfig(f *testing.F, c Config) {
	f.Add(int(c.Policy), c.Workers, c.ServiceMS, c.NormalRPS, c.SaleRPS, c.SaleStartS, c.SaleS, c.DurationS,
		c.TimeoutMS, c.Retries, c.RetryDelayMS, c.RetryJitterMS, c.Queue, c.RefusalCostMS, c.OrderShare,
		c.CoDelTargetMS, c.CoDelIntervalMS, int(c.Client), c.Seed,
		c.LossWorkers, c.LossStartS, c.LossS, c.SlowFactor, c.SlowStartS, c.SlowS,
		int(c.Service), c.ServiceP99MS, int(c.Patience), c.PatienceMS,
		c.SaleRampS, c.SaleWaves, c.SaleEveryS, c.HeapRequests, c.SeriesStepS, fuzzRestOf(c))
}

// addArrivalOrderConfig adds c to FuzzArrivalOrder's seed corpus: its
// typed settings, the path's whole domain.
func addArrivalOrderConfig(f *testing.F, c Config) {
	f.Add(int(c.Policy), c.Workers, c.ServiceMS, c.NormalRPS, c.SaleRPS, c.SaleStartS, c.SaleS, c.DurationS,
		c.TimeoutMS, c.Retries, c.RetryDelayMS, c.RetryJitterMS, c.Queue, c.RefusalCostMS, c.OrderShare,
		c.CoDelTargetMS, c.CoDelIntervalMS, int(c.Client), c.Seed,
		c.LossWorkers, c.LossStartS, c.LossS, c.SlowFactor, c.SlowStartS, c.SlowS,
		int(c.Service), c.ServiceP99MS, int(c.Patience), c.PatienceMS,
		c.SaleRampS, c.SaleWaves, c.SaleEveryS, c.HeapRequests, c.SeriesStepS)
}

// FuzzRun builds a Config from the fuzzer's values. An invalid one must be
// refused with field errors that name real fields; a valid one, its traffic
// scaled down to at most fuzzAttempts expected attempts, must run without
// panicking, satisfy every invariant, and run the same twice.
//
//	go test ./sim -run='^$' -fuzz=FuzzRun -fuzztime=60s
func FuzzRun(f *testing.F) {
	for _, s := range Samples() {
		addFuzzConfig(f, s.Config)
	}
	d := DefaultConfig()
	edges := []func(*Config){
		func(c *Config) { c.Policy, c.Retries, c.RetryDelayMS, c.Queue = Bounded, 20, 0, 1 },
		func(c *Config) { c.Policy, c.Queue, c.OrderShare, c.SaleRPS = Priority, 600, 0.95, 200 }, // evicts abandoned previews
		func(c *Config) { c.Policy, c.CoDelTargetMS, c.CoDelIntervalMS = LIFO, 0, 1e-9 },
		func(c *Config) { c.Workers, c.ServiceMS, c.TimeoutMS = 1, maxMS, 1e-9 },
		func(c *Config) { c.DurationS, c.SaleStartS, c.SaleS = 10, 0, 0 },
		func(c *Config) { c.DurationS, c.SaleStartS, c.SaleS = 95.5, 40.25, 45.25 },
		func(c *Config) { c.ServiceMS = math.NaN() },
		func(c *Config) { c.NormalRPS = math.Inf(1) },
		func(c *Config) { c.Workers, c.Seed = 0, MaxSeed+1 },
		func(c *Config) { c.Policy = 17 },
		func(c *Config) { c.SaleStartS = 280 },
		func(c *Config) { c.NormalRPS, c.Retries = 100_000, 100 },
		func(c *Config) { c.Client = 99 },
		func(c *Config) { c.SaleRPS, c.LossWorkers, c.LossStartS, c.LossS, c.Retries = 70, 3, 60, 30, 3 },
		func(c *Config) { c.LossWorkers, c.LossStartS, c.Policy, c.RefusalCostMS = 8, 61, Bounded, 80 },
		func(c *Config) { c.SlowFactor, c.SlowStartS, c.SlowS = 3, 60, 20 },
		func(c *Config) { c.LossWorkers, c.LossStartS = 9, 400 },
		func(c *Config) { c.SlowFactor, c.SlowS = 0.5, 295 },
		func(c *Config) { c.LossStartS, c.SlowS = 10, 10 },
		func(c *Config) { c.Service, c.ServiceP99MS = LognormalService, 600 },
		func(c *Config) { c.Service, c.ServiceP99MS = LognormalService, 80*MaxLognormalTail },
		func(c *Config) { c.Service, c.ServiceP99MS = LognormalService, 2000 }, // too heavy a tail
		func(c *Config) { c.Service = ConstantService },
		func(c *Config) { c.ServiceP99MS = 600 }, // for a shape that has none
		func(c *Config) { c.Retries, c.Patience, c.PatienceMS = 3, ExponentialPatience, 500 },
		func(c *Config) { c.Policy, c.Patience, c.PatienceMS = Skip, ExponentialPatience, 1e-9 },
		func(c *Config) { c.Patience = 5 },
		func(c *Config) { c.SaleRampS, c.SaleWaves, c.SaleEveryS = 20, 2, 90 },
		func(c *Config) { c.SaleRampS = 31 },
		func(c *Config) { c.SaleWaves, c.SaleEveryS = 3, 59 },
		func(c *Config) { c.SaleWaves, c.SaleEveryS, c.SaleS = 5, 0, 0 },
		func(c *Config) { c.SaleRPS, c.SaleRampS = 70, 10 },
		func(c *Config) { c.HeapRequests = 1000 },
		func(c *Config) { c.HeapRequests, c.Policy, c.Retries = 30, Skip, 3 },
		func(c *Config) { c.HeapRequests = -1 },
		func(c *Config) { c.Policy, c.LimitQueue, c.Workers, c.TimeoutMS = AIMD, LimitSkip, 4, 300 },
		func(c *Config) {
			c.Policy, c.LimitQueue, c.Patience, c.PatienceMS = Envoy, LimitSkip, ExponentialPatience, 1e-9
		},
		func(c *Config) { c.LimitQueue = 2 },
		func(c *Config) { c.SeriesStepS = 1 },
		func(c *Config) { c.SeriesStepS, c.Retries, c.Policy = 7.3, 3, CoDel },
		func(c *Config) { c.SeriesStepS = 0.0001 },                 // under a millisecond
		func(c *Config) { c.SeriesStepS, c.DurationS = 0.5, 3600 }, // too many points
	}
	for _, cl := range Clients {
		c := d
		c.Policy, c.Client, c.Retries = Bounded, cl, 3
		addFuzzConfig(f, c)
	}
	for _, e := range edges {
		c := d
		e(&c)
		addFuzzConfig(f, c)
	}

	f.Fuzz(func(t *testing.T, policy, workers int, serviceMS, normalRPS, saleRPS, saleStartS, saleS, durationS,
		timeoutMS float64, retries int, retryDelayMS, jitterMS float64, queue int, refusalCostMS, orderShare,
		codelTargetMS, codelIntervalMS float64, client int, seed uint64,
		lossWorkers int, lossStartS, lossS, slowFactor, slowStartS, slowS float64,
		service int, serviceP99MS float64, patience int, patienceMS float64,
		saleRampS float64, saleWaves int, saleEveryS float64, heapRequests int, seriesStepS float64, rest []byte) {
		// The fuzzed fields over the defaults; the rest from the extra
		// bytes, as far as they go.
		c := DefaultConfig()
		c.Policy, c.Workers, c.ServiceMS, c.NormalRPS, c.SaleRPS = Policy(policy), workers, serviceMS, normalRPS, saleRPS
		c.SaleStartS, c.SaleS, c.DurationS, c.TimeoutMS, c.Retries = saleStartS, saleS, durationS, timeoutMS, retries
		c.RetryDelayMS, c.RetryJitterMS, c.Queue, c.RefusalCostMS = retryDelayMS, jitterMS, queue, refusalCostMS
		c.OrderShare, c.CoDelTargetMS, c.CoDelIntervalMS, c.Client, c.Seed = orderShare, codelTargetMS, codelIntervalMS, Client(client), seed
		c.LossWorkers, c.LossStartS, c.LossS, c.SlowFactor, c.SlowStartS, c.SlowS = lossWorkers, lossStartS, lossS, slowFactor, slowStartS, slowS
		c.Service, c.ServiceP99MS, c.Patience, c.PatienceMS = ServiceShape(service), serviceP99MS, PatienceShape(patience), patienceMS
		c.SaleRampS, c.SaleWaves, c.SaleEveryS, c.HeapRequests = saleRampS, saleWaves, saleEveryS, heapRequests
		c.SeriesStepS = seriesStepS
		fuzzRest(&c, rest)
		if err := c.Validate(); err != nil {
			fes := FieldErrors(err)
			require.NotEmpty(t, fes, "an invalid Config is refused with field errors: %v", err)
			for _, fe := range fes {
				_, real := SettingByKey(fe.Field)
				assert.True(t, real, "a field error names a real field: %q", fe.Field)
				assert.NotEmpty(t, fe.Msg)
			}
			r, runErr := Run(c)
			require.Error(t, runErr)
			assert.Equal(t, err.Error(), runErr.Error())
			assert.Equal(t, Result{}, r)
			return
		}
		// Valid: scale the traffic down until the run is quick. Lowering
		// rates keeps a valid Config valid.
		if n := c.ExpectedAttempts(); n > fuzzAttempts {
			s := fuzzAttempts / n
			c.NormalRPS *= s
			c.SaleRPS *= s
		}
		require.NoError(t, c.Validate(), "scaled down: %+v", c)
		r, err := Run(c)
		require.NoError(t, err)
		checkInvariants(t, c, r)
		if c.SeriesStepS > 0 {
			checkSeries(t, c, r)
		}
		again, err := Run(c)
		require.NoError(t, err)
		assert.Equal(t, r, again, "deterministic")
	})
}
