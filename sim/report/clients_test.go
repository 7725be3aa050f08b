package report_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/shedsim/shedsim/sim"
	"github.com/shedsim/shedsim/sim/report"
)

// compareClients is report.CompareClients, checked to run c under every
// client, in order, with everything else the same.
func compareClients(t *testing.T, c sim.Config) []sim.Result {
	t.Helper()
	rs, err := report.CompareClients(c)
	require.NoError(t, err)
	require.Len(t, rs, len(sim.Clients), "one Result per client strategy")
	for i, cl := range sim.Clients {
		want := c
		want.Client = cl
		require.Equal(t, want, rs[i].Config, "result %d is %v with everything else the same", i, cl)
	}
	return rs
}

func TestCompareClients(t *testing.T) {
	tests := []struct {
		name   string
		config sim.Config
		reason string
	}{
		{"fifo, 3 retries", shop(retries(3)), "the metastable failure under every client"},
		{"bounded, 1 retry, budget", shop(policy(sim.Bounded), retries(1), client(sim.Budget)), "the config's own client is replaced"},
	}
	for _, tt := range tests {
		rs := compareClients(t, tt.config)
		for i, r := range rs {
			assert.Equal(t, run(t, r.Config), r, "%s, %v: what sim.Run gives (%s)", tt.name, sim.Clients[i], tt.reason)
		}
	}
	_, err := report.CompareClients(shop(func(c *sim.Config) { c.Workers = 0 }))
	assert.Error(t, err, "an invalid config is an error")
}

func TestClientRowOf(t *testing.T) {
	for _, r := range compareClients(t, shop(retries(3))) {
		row := report.ClientRowOf(r)
		name := r.Config.Client.String()
		require.Positive(t, r.Attempts, name)
		assert.Equal(t, float64(r.Client.RetriesSent)/float64(r.Attempts), row.ExtraLoad, "%s: ExtraLoad is retries sent over attempts", name)
		assert.Equal(t, report.ClientRow{
			Client: r.Config.Client, Title: r.Config.Client.Title(), People: r.Sale.People,
			Answered: r.Sale.AnsweredShare, Refused: r.Sale.RefusedShare, TimedOut: r.Sale.TimedOutShare,
			AttemptsPerPerson: r.AttemptsPerPerson, Attempts: r.Attempts, ExtraLoad: row.ExtraLoad,
			Throttled: r.Client.Throttled, Declined: r.Client.Declined,
			MedianWaitMS: r.Sale.MedianWaitMS, BackToNormalS: r.BackToNormalS, Recovery: r.Recovery,
			Fluid: report.FluidLine(r.Config, 3),
		}, row, "%s: every field from the Result", name)
		assert.GreaterOrEqual(t, row.ExtraLoad, 0.0, name)
		assert.Less(t, row.ExtraLoad, 1.0, "%s: every person's first attempt is not a retry", name)
	}

	// The post's client with 3 retries sends more retries than first tries.
	rows := report.ClientRows(compareClients(t, shop(retries(3))))
	require.Len(t, rows, len(sim.Clients))
	assert.Greater(t, rows[sim.Fixed].ExtraLoad, 0.5, "the fixed client: most of the load is retries")
	assert.Less(t, rows[sim.Budget].ExtraLoad, 0.05, "the budget: almost no retries once it is spent")
	assert.Less(t, rows[sim.Ratio].ExtraLoad, 0.1, "the ratio client: retries under 10% of requests")
	assert.Positive(t, rows[sim.Throttle].Throttled, "the throttle client refuses its own requests")

	// A Result with no attempts has no extra load, not NaN.
	assert.Equal(t, 0.0, report.ClientRowOf(sim.Result{Config: sim.DefaultConfig()}).ExtraLoad, "no attempts: no extra load")
}

func TestClientTable(t *testing.T) {
	rows := report.ClientRows(compareClients(t, shop(retries(3))))
	tab := report.ClientTable(rows)
	assert.Equal(t, []string{"Client", "Answered", "Refused", "Timed out", "Attempts per person (sale)", "Retries among all attempts (run)", "Back to normal"}, tab.Header)
	require.Len(t, tab.Rows, len(rows))
	for i, r := range rows {
		assert.Equal(t, []string{r.Title, report.Percent(r.Answered), report.Percent(r.Refused), report.Percent(r.TimedOut),
			report.Number(r.AttemptsPerPerson, 2), report.Percent(r.ExtraLoad),
			report.BackCell(report.Row{BackToNormalS: r.BackToNormalS, Recovery: r.Recovery})}, tab.Rows[i], "row %d", i)
	}
	assert.Equal(t, "stuck", tab.Rows[sim.Fixed][6], "the post's client is stuck")
	assert.Equal(t, "throttled", tab.Rows[sim.Throttle][6], "throttling clients shut themselves out")
}

// TestClientsWithoutRetriesAreTheFixedClient: with no retries, a client's
// strategy has nothing to decide, so every client but throttle (which may
// refuse a first attempt itself) gives the fixed client's run, to the
// person, for every policy, with the same seed.
func TestClientsWithoutRetriesAreTheFixedClient(t *testing.T) {
	for _, p := range sim.Policies {
		rs := compareClients(t, shop(policy(p)))
		fixed := rs[sim.Fixed]
		for i, r := range rs {
			cl := sim.Clients[i]
			if cl == sim.Throttle {
				continue
			}
			assert.Equal(t, fixed.Sale, r.Sale, "%v, %v: the same sale as the fixed client", p, cl)
			assert.Equal(t, fixed.Windows, r.Windows, "%v, %v: the same windows", p, cl)
			assert.Equal(t, fixed.Attempts, r.Attempts, "%v, %v: the same attempts", p, cl)
			assert.Zero(t, r.Client.RetriesSent, "%v, %v: no retries", p, cl)
			assert.Zero(t, report.ClientRowOf(r).ExtraLoad, "%v, %v: no extra load", p, cl)
		}
	}
	// Throttling does change the run: in the default sale it refuses some
	// first attempts itself once accepts fall behind.
	rs := compareClients(t, shop())
	assert.Positive(t, rs[sim.Throttle].Client.Throttled, "the throttle client refused first attempts")
	assert.NotEqual(t, rs[sim.Fixed].Sale, rs[sim.Throttle].Sale, "throttling changes the sale")
}

func TestWriteClients(t *testing.T) {
	v, err := report.BuildClients(shop(retries(3)))
	require.NoError(t, err)
	assert.Equal(t, shop(retries(3)), v.Config)
	require.Len(t, v.Rows, len(sim.Clients))
	for i, r := range v.Rows {
		assert.Equal(t, sim.Clients[i], r.Client, "row %d in the order of sim.Clients", i)
		assert.Equal(t, report.FluidLine(shop(retries(3), client(sim.Clients[i])), 3), r.Fluid, "row %d's fluid line", i)
	}
}
