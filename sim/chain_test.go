package sim

import (
	"encoding/json"
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// quietChain is a light load on a chain of three hops behind the entry,
// every timeout far longer than any wait: nothing times out, so what each
// hop receives is what the proxies' retries make of it.
func quietChain() Config {
	c := DefaultConfig()
	c.NormalRPS, c.SaleRPS, c.SaleStartS, c.SaleS, c.DurationS = 0, 5, 0, 20, 120
	c.Workers, c.ServiceMS, c.TimeoutMS = 200, 1, 60_000
	return c
}

// TestChainAmplification: with the bottom hop answering every call with an
// error, and every proxy retrying errors r times with no budget, hop k
// receives exactly (1 + r)^k tries per person (rule 40), asserted, not
// sampled: every person's calls end long before the run does.
func TestChainAmplification(t *testing.T) {
	for _, r := range []int{1, 2} {
		c := quietChain()
		c.Hops = "" +
			"orders: workers=200 service_ms=1 timeout_ms=50000 retries=R retry_on=refusals\n" +
			"payments: workers=200 service_ms=1 timeout_ms=40000 retries=R retry_on=refusals\n" +
			"bank: workers=200 service_ms=1 timeout_ms=30000 retries=R retry_on=refusals errors=1"
		c.Hops = replaceAll(c.Hops, "R", r)
		res, err := Run(c)
		require.NoError(t, err)
		require.Len(t, res.Hops, 3)
		require.Positive(t, res.People)
		assert.Equal(t, res.People, res.Attempts, "the entry's people do not retry")
		assert.Equal(t, res.People, res.Windows[0].Refused+res.Windows[1].Refused, "every person hears the error")
		for k, h := range res.Hops {
			want := res.People * int(math.Pow(float64(1+r), float64(k+1)))
			assert.Equal(t, want, h.Result.Attempts, "hop %d (%s), r=%d", k+1, h.Hop.Name, r)
			assert.Equal(t, float64(want)/float64(res.People), h.TriesPerPerson)
		}
		assert.Equal(t, res.Hops[2].Result.Attempts, res.Hops[2].Result.ErrorAnswers, "the bottom answers every try with an error")
	}
}

func replaceAll(s, old string, n int) string {
	out := ""
	for _, ch := range s {
		if string(ch) == old {
			out += string(rune('0' + n))
		} else {
			out += string(ch)
		}
	}
	return out
}

// randomChain is a chain of 1 to 3 hops behind a shop with a sale, each
// hop with a policy, a proxy and an error share drawn from rng.
func randomChain(rng *rand.Rand) Config {
	c := DefaultConfig()
	c.DurationS, c.SaleStartS, c.SaleS = 120, 20, 30
	c.Workers = 4 + rng.IntN(20)
	c.Retries = rng.IntN(3)
	c.Policy = Policies[rng.IntN(len(Policies))]
	c.Seed = rng.Uint64N(1000)
	if rng.IntN(3) == 0 {
		c.SeriesStepS = 1
	}
	if rng.IntN(4) == 0 {
		c.LossWorkers, c.LossStartS, c.LossS = 2, 30, 20
	}
	var lines []string
	for k := range 1 + rng.IntN(3) {
		line := fmt.Sprintf("hop%d: workers=%d service_ms=%g timeout_ms=%g policy=%s retries=%d per_try_timeout_ms=%g backoff=envoy backoff_base_ms=%g backoff_max_ms=%g",
			k+1, 2+rng.IntN(16), 5+float64(rng.IntN(100)), 200+float64(rng.IntN(2000)), Policies[rng.IntN(len(Policies))],
			rng.IntN(3), float64(rng.IntN(300)), float64(rng.IntN(50)), 50+float64(rng.IntN(200)))
		if rng.IntN(3) == 0 {
			line += fmt.Sprintf(" errors=%g", float64(rng.IntN(10))/10)
		}
		lines = append(lines, line)
	}
	c.Hops = strings.Join(lines, "\n")
	return c
}

// TestChainInvariants holds random chains to what every run keeps, hop by
// hop: every person (call) ends once, a hop receives exactly the calls the
// hop before made, a failed call fails no more than were made, the workers'
// time adds up (result panics otherwise), and the same Config gives the
// same bytes.
func TestChainInvariants(t *testing.T) {
	rng := rand.New(rand.NewPCG(25, 40))
	for n := range 60 {
		c := randomChain(rng)
		if err := c.Validate(); err != nil {
			t.Log(err)
			continue // a per-try timeout over the call's, say
		}
		r, err := Run(c)
		require.NoError(t, err, "run %d", n)
		again, _ := Run(c)
		a, _ := json.Marshal(r)
		b, _ := json.Marshal(again)
		require.Equal(t, string(a), string(b), "run %d: the same Config, the same bytes", n)
		runs := append([]Result{r}, func() (rs []Result) {
			for _, h := range r.Hops {
				rs = append(rs, h.Result)
			}
			return
		}()...)
		for k, hr := range runs {
			var ended, people int
			for _, w := range hr.Windows {
				people += w.People
				ended += w.Answered + w.Refused + w.TimedOut + w.Unfinished
			}
			assert.Equal(t, people, ended, "run %d hop %d: every call ends once", n, k)
			assert.LessOrEqual(t, hr.CallsFailed, hr.CallsMade, "run %d hop %d", n, k)
			if k > 0 {
				assert.Equal(t, runs[k-1].CallsMade, hr.People, "run %d hop %d receives the calls the hop before made", n, k)
			}
			if k == len(runs)-1 {
				assert.Zero(t, hr.CallsMade, "run %d: the bottom calls nobody", n)
			}
			total := float64(hr.Config.Workers) * hr.Config.DurationS
			w := hr.WorkerTimeS
			assert.InDelta(t, total, w.Useful+w.Wasted+w.Refusing+w.Idle+w.Gone+w.Calling, 1e-6*total, "run %d hop %d", n, k)
		}
	}
}

// TestChainLoads: the fluid view of the example, derived by hand.
// The shop's 70/s, no retries at the entry; orders retries once (2 tries
// a call), payments once: payments is offered 70 x 1 x 2 x 2 = 280/s
// against its 8 workers at 80 ms, 100/s, and cannot drain, so payments and
// every service above it is stuck once the sale has tipped it.
func TestChainLoads(t *testing.T) {
	c := DefaultConfig()
	c.Hops = "orders: workers=16 service_ms=20 timeout_ms=1500 retries=1\npayments: workers=8 service_ms=80 timeout_ms=1000 retries=1"
	require.NoError(t, c.Validate())
	loads := c.ChainLoads()
	require.Len(t, loads, 3)
	assert.Equal(t, HopLoad{Name: "", Tries: []float64{1}, OfferedRPS: 70, CapacityRPS: 100, Drains: true}, loads[0])
	assert.Equal(t, HopLoad{Name: "orders", Tries: []float64{1, 2}, OfferedRPS: 140, CapacityRPS: 800, Drains: true}, loads[1])
	assert.Equal(t, HopLoad{Name: "payments", Tries: []float64{1, 2, 2}, OfferedRPS: 280, CapacityRPS: 100, Drains: false}, loads[2])
	for k := range loads {
		assert.Equal(t, Stuck, chainRecovery(loads, k, c), "service %d: payments behind it cannot drain", k)
	}
	c.Hops = "orders: workers=16 service_ms=20 timeout_ms=1500 retries=1\npayments: workers=32 service_ms=80 timeout_ms=1000 retries=1"
	loads = c.ChainLoads()
	assert.True(t, loads[2].Drains, "280/s against 400/s")
	assert.Equal(t, Backlog, chainRecovery(loads, 0, c))
}

// FuzzHops reads a chain's text as a person may type it: ParseHops never
// panics, what it reads FormatHops writes back to the same hops, and a
// Config with them is refused with the field "hops" or runs, small, with
// every call ended once at every hop, the same twice.
//
//	go test ./sim -run='^$' -fuzz=FuzzHops -fuzztime=60s
func FuzzHops(f *testing.F) {
	f.Add("payments: workers=4 service_ms=50 timeout_ms=1000 proxy=envoy")
	f.Add("a: workers=2 service_ms=5 timeout_ms=100 retries=3 per_try_timeout_ms=20 errors=0.5; b: workers=1 service_ms=80 timeout_ms=50 policy=bounded queue=2")
	f.Add("x: workers=1 service_ms=1 timeout_ms=1\ny: workers=1 service_ms=1 timeout_ms=1\nz: workers=1 service_ms=1 timeout_ms=1\nw: workers=1 service_ms=1 timeout_ms=1")
	f.Add("p: workers=0 service_ms=-1 timeout_ms=NaN retries=1e9")
	f.Add("p workers=1")
	f.Add("#\n\n;;p: workers=3 service_ms=3 timeout_ms=3 policy=aimd retry_on=timeouts backoff=envoy backoff_base_ms=1 backoff_max_ms=2")
	f.Fuzz(func(t *testing.T, text string) {
		hops, err := ParseHops(text)
		if err == nil && len(hops) > 0 {
			again, err := ParseHops(FormatHops(hops))
			require.NoError(t, err, "FormatHops writes what ParseHops reads: %q", FormatHops(hops))
			require.Equal(t, hops, again)
		}
		c := DefaultConfig()
		c.NormalRPS, c.SaleRPS, c.DurationS, c.SaleStartS, c.SaleS = 20, 40, 30, 5, 10
		c.Hops = text
		if err := c.Validate(); err != nil {
			for _, fe := range FieldErrors(err) {
				assert.Equal(t, "hops", fe.Field, "only the hops are new here: %v", err)
				assert.NotEmpty(t, fe.Msg)
			}
			return
		}
		if c.ExpectedAttempts() > fuzzAttempts {
			return
		}
		r, err := Run(c)
		require.NoError(t, err)
		again, _ := Run(c)
		require.Equal(t, r, again)
		for k, h := range r.Hops {
			var ended, people int
			for _, w := range h.Result.Windows {
				people += w.People
				ended += w.Answered + w.Refused + w.TimedOut + w.Unfinished
			}
			assert.Equal(t, people, ended, "hop %d: every call ends once", k+1)
		}
	})
}

// TestChainBadInput: what the issue names, and the rest a person may type,
// is refused with the field "hops" and a message naming the hop and its
// key, and with the fix; an amplification over the attempt budget names
// the hop that takes it over.
func TestChainBadInput(t *testing.T) {
	ok := "a: workers=2 service_ms=10 timeout_ms=500"
	for _, tt := range []struct{ hops, says string }{
		{"a: workers=0 service_ms=10 timeout_ms=500", "hop 1 (a): workers: 0 is out of range: use a whole number from 1 to 100,000"},
		{ok + "\nb: workers=2 service_ms=10 timeout_ms=500\nc: workers=2 service_ms=10 timeout_ms=500\nd: workers=2 service_ms=10 timeout_ms=500",
			"line 4, column 1: a chain holds at most 4 services, the entry and 3 hops: remove a hop"},
		{"a: workers=2 service_ms=10 timeout_ms=500 proxy=envoy budget=envoy budget_percent=-5", "hop 1 (a): budget_percent: "},
		{"a: workers=2 service_ms=10 timeout_ms=500 per_try_timeout_ms=900", "hop 1 (a): per_try_timeout_ms: 900 ms is longer than the whole call's timeout_ms, 500: use at most 500, or 0 for none"},
		{ok + "\nb: workers=2 service_ms=10", "line 2, column 1: hop 2 (b): give its timeout_ms="},
		{"a workers=2", "a hop starts with its name and a colon"},
		{ok + "\na: workers=2 service_ms=10 timeout_ms=500", "another hop is named a"},
		{"a: workers=2 service_ms=ten timeout_ms=500", "hop 1 (a): service_ms: ten is not a finite number"},
		{"a: workers=2 service_ms=10 timeout_ms=500 colour=red", "hop 1 (a): colour"},
		{"a: workers=2 service_ms=10 timeout_ms=500 errors=2", "hop 1 (a): errors: 2 is not a share"},
		{"a: workers=2 service_ms=10 timeout_ms=500 policy=lifo2", "hop 1 (a): policy:"},
		{"pay ments: workers=2 service_ms=10 timeout_ms=500", `the name pay ments has ' '`},
	} {
		c := DefaultConfig()
		c.Hops = tt.hops
		err := c.Validate()
		require.Error(t, err, tt.hops)
		fes := FieldErrors(err)
		require.NotEmpty(t, fes)
		assert.Equal(t, "hops", fes[0].Field, tt.hops)
		assert.Contains(t, err.Error(), tt.says, tt.hops)
	}

	c := DefaultConfig()
	c.Hops = "a: workers=64 service_ms=1 timeout_ms=5000 retries=100\nb: workers=64 service_ms=1 timeout_ms=4000 retries=100"
	err := c.Validate()
	require.Error(t, err)
	assert.Contains(t, err.Error(), "hop 2 (b) may receive about 263,")
	assert.Contains(t, err.Error(), "lower its proxy's retries")
}

// TestParseHopsLines: an error names the text's own line, blank lines and
// comments counted, as the page's field numbers them.
func TestParseHopsLines(t *testing.T) {
	_, err := ParseHops("# the chain\n\na: workers=2 service_ms=10 timeout_ms=500\n\nb: workers=x service_ms=10 timeout_ms=500")
	require.Error(t, err)
	assert.Contains(t, err.Error(), "line 5, column 1: hop 2 (b): workers: x is not a whole number")
	_, err = ParseHops("a: workers=2 service_ms=10 timeout_ms=500; b workers=2")
	require.Error(t, err)
	assert.Contains(t, err.Error(), "line 1, column 1: a hop starts with its name and a colon, as in payments:")
}
