package report_test

import (
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/shedsim/shedsim/sim"
	"github.com/shedsim/shedsim/sim/report"
)

func TestHeadlineQuotesTheRun(t *testing.T) {
	r, err := sim.Run(sim.DefaultConfig())
	require.NoError(t, err)
	got := report.Headline(r)
	assert.Equal(t, "Unbounded queue: "+report.SaleShares(r)+"; "+report.Recovered(r)+".", got)
	assert.Contains(t, got, report.Percent(r.Sale.AnsweredShare)+" of the sale's people answered", "the headline quotes this run's answered share")
}

// cellCount reads a Count cell ("1,523").
func cellCount(t *testing.T, s string) int {
	t.Helper()
	n, err := strconv.Atoi(strings.ReplaceAll(s, ",", ""))
	require.NoError(t, err, s)
	return n
}

func TestWindowTable(t *testing.T) {
	cases := []struct {
		reason     string
		config     sim.Config
		saleWindow int // how many windows are the sale's
	}{
		{"the shop's sale, 60 s to 120 s, is six 10 s windows", shop(), 6},
		{"at the normal rate there is no sale to mark", shop(saleRPS(sim.DefaultConfig().NormalRPS)), 0},
		{"with retries the windows still add up to the run", shop(retries(3), policy(sim.Bounded)), 6},
	}
	for _, tc := range cases {
		t.Run(tc.reason, func(t *testing.T) {
			r, err := sim.Run(tc.config)
			require.NoError(t, err)
			tab, inSale := report.WindowTable(r)
			require.Len(t, tab.Rows, len(r.Windows), "one row a window")
			require.Len(t, inSale, len(r.Windows))
			sale, people, attempts := 0, 0, 0
			for i, row := range tab.Rows {
				require.Len(t, row, len(tab.Header))
				assert.Equal(t, inSale[i], strings.HasSuffix(row[0], " (sale)"), "row %d: the label marks the sale exactly where inSale does", i)
				if inSale[i] {
					sale++
				}
				people += cellCount(t, row[1])
				attempts += cellCount(t, row[6])
			}
			assert.Equal(t, tc.saleWindow, sale)
			assert.Equal(t, r.People, people, "the People column adds up to the run's people")
			assert.Equal(t, r.Attempts, attempts, "the Attempts column adds up to the run's attempts")
		})
	}
}

func TestSampleOf(t *testing.T) {
	for _, s := range sim.Samples() {
		key, about := report.SampleOf(s.Config)
		assert.Equal(t, s.Key, key, "a sample's own Config is that sample")
		assert.Equal(t, s.About, about)
	}
	key, about := report.SampleOf(shop(func(c *sim.Config) { c.Workers = 9 }))
	assert.Equal(t, "custom", key, "a Config that is no sample is the reader's own")
	assert.Contains(t, about, "pick a sample")
}

func TestClientsLead(t *testing.T) {
	assert.Contains(t, report.ClientsLead(shop(retries(3))), "out of the most a client may send: 4.", "1 + 3 retries")
	assert.Contains(t, report.ClientsLead(shop()), "differ only where a client refuses its own requests", "with no retries only throttling differs")
	assert.NotContains(t, report.ClientsLead(shop(retries(1))), "differ only where")
}

func TestClientBarText(t *testing.T) {
	cases := []struct {
		reason string
		config sim.Config
		want   string
	}{
		{"unbounded with 3 retries: the retries keep the queue full", shop(retries(3)), "attempts per person; retries are "},
		{"a sale of 0 s: nobody to count per person", shop(func(c *sim.Config) { c.SaleS = 0 }), "nobody arrived in a sale of 0 s; "},
	}
	for _, tc := range cases {
		t.Run(tc.reason, func(t *testing.T) {
			v, err := report.BuildClients(tc.config)
			require.NoError(t, err)
			for _, row := range v.Rows {
				got := report.ClientBarText(tc.config, row)
				assert.Contains(t, got, tc.want, row.Title)
				parts := strings.Split(got, "; ")
				require.Len(t, parts, 3, "per person; load; back: %q", got)
				switch {
				case row.BackToNormalS != nil:
					assert.Contains(t, parts[2], "back to normal")
				case row.Recovery == sim.Throttled:
					assert.Equal(t, "clients still throttling", parts[2])
				case row.Recovery != sim.Unmeasured:
					assert.Equal(t, string(row.Recovery), parts[2], "not back: the recovery's own word")
				}
			}
		})
	}
	// The post: with retries the unbounded queue stays stuck.
	c := shop(retries(3))
	v, err := report.BuildClients(c)
	require.NoError(t, err)
	assert.True(t, strings.HasSuffix(report.ClientBarText(c, v.Rows[0]), "; stuck"), report.ClientBarText(c, v.Rows[0]))
}
