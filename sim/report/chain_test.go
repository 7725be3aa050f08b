package report_test

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/shedsim/shedsim/sim"
	"github.com/shedsim/shedsim/sim/report"
)

// chainHops is a chain behind the shop: payments, then a bank with too
// few workers for the sale, each behind a proxy that retries once.
const chainHops = "payments: workers=16 service_ms=30 timeout_ms=1500 per_try_timeout_ms=700 retries=1 backoff=envoy backoff_base_ms=25 backoff_max_ms=250\n" +
	"bank: workers=6 service_ms=60 timeout_ms=600 per_try_timeout_ms=250 retries=1 backoff=envoy backoff_base_ms=25 backoff_max_ms=250"

// chainShop is the shop with a thin entry, 24 workers at 20 ms, in front
// of chainHops.
func chainShop(changes ...func(*sim.Config)) sim.Config {
	return shop(append([]func(*sim.Config){func(c *sim.Config) {
		c.Workers, c.ServiceMS, c.Hops = 24, 20, chainHops
	}}, changes...)...)
}

func TestGoldenChain(t *testing.T) {
	r := run(t, chainShop())
	ch, ok := report.BuildChain(r)
	require.True(t, ok)
	b, err := json.MarshalIndent(ch, "", "  ")
	require.NoError(t, err)
	golden(t, "chain-shop.json", append(b, '\n'))
	var text bytes.Buffer
	require.NoError(t, report.WriteChain(&text, r))
	golden(t, "chain-shop.txt", text.Bytes())
}

// TestChainOfAServiceAlone: a Result without hops has no chain, in the
// view or the text.
func TestChainOfAServiceAlone(t *testing.T) {
	r := run(t, shop())
	_, ok := report.BuildChain(r)
	assert.False(t, ok, "no hops, no chain")
	var b bytes.Buffer
	require.NoError(t, report.WriteChain(&b, r))
	assert.Empty(t, b.String(), "nothing written for a service alone")
	assert.Nil(t, report.ChosenView(shop(), r).Chain, "the view has no chain")
	assert.NotNil(t, report.ChosenView(chainShop(), run(t, chainShop())).Chain, "a chain's view has one")
}

// TestChainReadsTheRun: each row is its service's own Result, and the
// table's numbers add up as the run's do.
func TestChainReadsTheRun(t *testing.T) {
	r := run(t, chainShop(retries(1)))
	ch, _ := report.BuildChain(r)
	require.Len(t, ch.Services, 3)
	entry, bank := ch.Services[0], ch.Services[2]
	assert.Equal(t, report.EntryName, entry.Name)
	assert.True(t, entry.Entry)
	assert.Equal(t, r.Sale.People, entry.Calls, "the entry's calls are its sale's people")
	assert.Equal(t, r.Client.Retries, entry.Retries, "the entry's retries are the people's clients'")
	assert.Equal(t, 2, entry.MostTries, "1 + the clients' retries")
	assert.Equal(t, float64(r.Attempts)/float64(r.People), entry.TriesPerPerson, "over the run's people, as the hops'")
	assert.Equal(t, "bank", bank.Name)
	assert.Equal(t, r.Hops[1].Result.Attempts, bank.Tries)
	assert.Equal(t, r.Hops[1].TriesPerPerson, bank.TriesPerPerson)
	assert.Equal(t, r.Hops[1].Result.Client.Retries, bank.Retries, "a hop's retries are its proxy's")
	assert.Equal(t, 100.0, bank.CapacityRPS, "6 workers x 1000 / 60 ms")
	for _, s := range ch.Services {
		assert.InDelta(t, s.Busy, s.Own+s.Calling, 1e-12, "%s: busy is its own work and its calls", s.Name)
		assert.LessOrEqual(t, s.Busy, 1.0, s.Name)
	}
	assert.Zero(t, bank.Calling, "the last hop calls nothing")
	assert.Positive(t, entry.Calling, "the entry's workers are held for its calls")
}

// service is a ChainService for the bottleneck's and the lines' cases.
func service(name string, own, calling float64, retries int) report.ChainService {
	return report.ChainService{Name: name, Own: own, Calling: calling, Busy: own + calling, Retries: retries, Entry: name == report.EntryName}
}

func TestChainBottleneck(t *testing.T) {
	tests := []struct {
		services []report.ChainService
		want     int
		reason   string
	}{
		{[]report.ChainService{service(report.EntryName, 0.9, 0.05, 0), service("payments", 0.3, 0, 0)}, 0,
			"the entry's workers work more than they wait: the entry holds the chain up"},
		{[]report.ChainService{service(report.EntryName, 0.1, 0.85, 0), service("payments", 0.2, 0.7, 0), service("bank", 0.9, 0, 0)}, 2,
			"each caller waits more than it works, down to the bank"},
		{[]report.ChainService{service(report.EntryName, 0.1, 0.85, 0), service("payments", 0.5, 0.45, 0), service("bank", 0.3, 0, 0)}, 1,
			"payments works more than it waits on the bank: it stops there"},
		{[]report.ChainService{service(report.EntryName, 0.1, 0.3, 0), service("payments", 0.45, 0, 0)}, -1,
			"payments, where it stops, was busy under half the run: no bottleneck"},
		{[]report.ChainService{service(report.EntryName, 0.25, 0.25, 0), service("payments", 0.2, 0, 0)}, 0,
			"waiting as much as working is not more: it stops at the entry, busy half the run"},
	}
	for _, tt := range tests {
		assert.Equal(t, tt.want, report.ChainBottleneck(tt.services), tt.reason)
	}
}

// chainResult is a Result with hops, each service's worker time and
// retries as given (own, calling and idle shares of 100 s), for the
// lines' cases.
func chainResult(services ...report.ChainService) sim.Result {
	res := func(s report.ChainService) sim.Result {
		return sim.Result{
			WorkerTimeS: sim.WorkerTime{Useful: 100 * s.Own, Calling: 100 * s.Calling, Idle: 100 * (1 - s.Busy)},
			Client:      sim.ClientStats{Retries: s.Retries, Declined: s.Declined},
		}
	}
	r := res(services[0])
	r.Config = shop()
	for _, s := range services[1:] {
		r.Hops = append(r.Hops, sim.HopResult{Hop: sim.Hop{Name: s.Name, Workers: 4, ServiceMS: 50, TimeoutMS: 1000}, Result: res(s)})
	}
	return r
}

func TestChainLines(t *testing.T) {
	declining := service("bank", 0.9, 0, 40)
	declining.Declined = 7
	tests := []struct {
		r                   sim.Result
		bottleneck, retries string
		reason              string
	}{
		{chainResult(service(report.EntryName, 0.1, 0.8, 0), service("payments", 0.6, 0, 0)),
			"Bottleneck: payments: its workers were busy 60.0% of the run, all on its own work; the entry's workers spent more of theirs waiting on it than working.",
			"Retries: none: no try was retried, at the entry or by a proxy.",
			"the first hop, named, and why: the entry waits on it"},
		{chainResult(service(report.EntryName, 0.1, 0.8, 10), service("payments", 0.2, 0.7, 30), declining),
			"Bottleneck: bank: its workers were busy 90.0% of the run, all on its own work; the services before it spent more of their workers' time waiting on the next than working.",
			"Retries: the proxy to bank made the most, 40 of 80 (50.0%); its budget declined 7 more.",
			"the deepest hop; the proxy that retried most of all the chain's, and what its budget declined"},
		{chainResult(service(report.EntryName, 0.6, 0.3, 5), service("payments", 0.2, 0, 0)),
			"Bottleneck: checkout (entry): its workers were busy 90.0% of the run, 60.0% on its own work and 30.0% waiting on payments.",
			"Retries: the people's clients made the most, 5 of 5 (100.0%).",
			"the entry itself, its waits named; the people's clients, alone"},
		{chainResult(service(report.EntryName, 0.1, 0.2, 0), service("payments", 0.4, 0, 0)),
			"Bottleneck: none: no service's workers were busy half the run; the busiest, payments, 40.0%.",
			"Retries: none: no try was retried, at the entry or by a proxy.",
			"nothing busy half the run is no bottleneck: the busiest is named"},
	}
	for _, tt := range tests {
		ch, ok := report.BuildChain(tt.r)
		require.True(t, ok, tt.reason)
		assert.Equal(t, tt.bottleneck, ch.BottleneckLine.String(), tt.reason)
		assert.Equal(t, tt.retries, ch.Retries.String(), tt.reason)
	}
}

func TestChainFluid(t *testing.T) {
	with := func(text string) func(*sim.Config) { return func(c *sim.Config) { c.Hops = text } }
	tests := []struct {
		c      sim.Config
		want   []string
		reason string
	}{
		{chainShop(), []string{
			"checkout (entry): 70/s x 1 try = 70/s against 1,200/s, drains",
			"payments: 70/s x 1 x 2 = 140/s against 533.33/s, drains",
			"bank: 70/s x 1 x 2 x 2 = 280/s against 100/s, never drains",
		}, "every layer's tries multiply down the chain, each against its own capacity"},
		{chainShop(retries(3), with("payments: workers=2 service_ms=20 timeout_ms=500 retries=2")), []string{
			"checkout (entry): 70/s x 4 tries = 280/s against 1,200/s, drains",
			"payments: 70/s x 4 x 3 = 840/s against 100/s, never drains",
		}, "the people's retries are the first layer"},
		{chainShop(with("payments: workers=7 service_ms=100 timeout_ms=500")), []string{
			"checkout (entry): 70/s x 1 try = 70/s against 1,200/s, drains",
			"payments: 70/s x 1 x 1 = 70/s against 70/s, never drains",
		}, "a load equal to the capacity never drains, as sim.Config.Drains says"},
		{chainShop(with(strings.Replace(chainHops, "retries=1", "retries=1 budget=envoy", 1))), []string{
			"checkout (entry): 70/s x 1 try = 70/s against 1,200/s, drains",
			"payments: 70/s x 1 x 1.25 = 87.5/s against 533.33/s, drains (the proxy to payments lets through only what its limit allows)",
			"bank: 70/s x 1 x 1.25 x 2 = 175/s against 100/s, never drains (the proxy to payments lets through only what its limit allows)",
		}, "Envoy's retry budget: 20% of the tries out, so 1 / 0.8 = 1.25 tries a call (rule 42)"},
		{chainShop(client(sim.Throttle)), []string{
			"checkout (entry): the clients send at most 2 x what is accepted, so with nothing accepted almost nothing reaches the chain: every service drains",
		}, "adaptive throttling at the entry shuts the whole chain"},
	}
	for _, tt := range tests {
		assert.Equal(t, tt.want, report.ChainFluid(tt.c), tt.reason)
	}
}

// TestChainEndsTheText: one run's view and the post's tables end with
// the chain of the Config's own policy, as WriteChain writes it.
func TestChainEndsTheText(t *testing.T) {
	c := chainShop()
	var chain bytes.Buffer
	require.NoError(t, report.WriteChain(&chain, run(t, c)))
	var view bytes.Buffer
	require.NoError(t, report.WriteView(&view, report.ChosenView(c, run(t, c))))
	assert.True(t, bytes.HasSuffix(view.Bytes(), chain.Bytes()), "one run's view ends with its chain:\n%s", view.String())
	var tables bytes.Buffer
	require.NoError(t, report.WritePostTables(&tables, c))
	assert.True(t, bytes.HasSuffix(tables.Bytes(), chain.Bytes()), "the post's tables end with the chain of the Config's policy:\n%s", tables.String())
}

// TestHopRun: a hop's run read as a run of its own keeps its counts and
// takes the entry's sale and length, so that its chart shades the sale;
// the hop's own Config, with no traffic of its own, has none to shade.
func TestHopRun(t *testing.T) {
	r := run(t, chainShop())
	h := report.HopRun(r, 1)
	assert.Equal(t, r.Hops[1].Result.Windows, h.Windows, "its own windows")
	assert.Equal(t, r.Hops[1].Result.Sale, h.Sale, "its own counts")
	assert.Equal(t, r.Config.SaleStartS, h.Config.SaleStartS)
	assert.Equal(t, 6, h.Config.Workers, "the hop's workers")
	assert.Empty(t, h.Config.Hops, "a hop alone")
	assert.Positive(t, report.Timeline(h).Sale.W, "its chart shades the entry's sale")
	assert.Zero(t, report.Timeline(r.Hops[1].Result).Sale.W, "the hop's own Config has no sale")
	assert.Equal(t, "Answered, refused and timed out per 10 s of the calls made to bank, by when each call was made; the shaded band is the sale.",
		report.HopChartCaption("bank", h.Config))
}

func TestHopSummary(t *testing.T) {
	tests := []struct {
		hop    sim.Hop
		want   string
		reason string
	}{
		{sim.Hop{Name: "payments", Workers: 4, ServiceMS: 50, TimeoutMS: 1000},
			"payments: 4 workers at 50 ms (80/s), a 1 s timeout on the whole call, its proxy making no retries",
			"the least a hop gives"},
		{sim.Hop{Name: "bank", Workers: 1, ServiceMS: 40, TimeoutMS: 500, Policy: sim.Bounded, ErrorShare: 0.05,
			Proxy: sim.Proxy{Retries: 2, PerTryTimeoutMS: 200, Budget: sim.LinkerdBudget}},
			"bank: 1 worker at 40 ms (25/s), the bounded queue, 5.0% of its answers errors, a 500 ms timeout on the whole call, its proxy making up to 2 retries, 200 ms a try, within a retry budget",
			"every part a hop may set"},
	}
	for _, tt := range tests {
		assert.Equal(t, tt.want, report.HopSummary(tt.hop), tt.reason)
	}
}

// TestChainStuckBehind: an entry that drains alone but is stuck because a
// hop behind it never drains (rule 40) says so, and names the hop and its
// load, rather than blame retries it does not make.
func TestChainStuckBehind(t *testing.T) {
	s, ok := sim.SampleByKey("chain-retries")
	require.True(t, ok)
	require.Zero(t, s.Config.Retries, "the sample's people do not retry")
	r := run(t, s.Config)
	require.Equal(t, sim.Stuck, r.Recovery)
	loads := r.Config.ChainLoads()
	require.True(t, loads[0].Drains, "the entry's own queue drains")

	recovered := report.Recovered(r)
	assert.Contains(t, recovered, "stuck, payments behind it never drains")
	assert.NotContains(t, recovered, "retries keep the queue full")
	line := report.ThisRun(r).Text
	assert.Contains(t, line, "payments behind it never does")
	assert.Contains(t, line, "280/s against its 133.33/s", "the fluid view's load and capacity")
	assert.NotContains(t, line, "Retries keep the queue full")

}
