package report_test

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/shedsim/shedsim/sim"
	"github.com/shedsim/shedsim/sim/report"
)

func TestTableWriteTo(t *testing.T) {
	tests := []struct {
		name   string
		table  report.Table
		want   string
		reason string
	}{
		{"policies", report.Table{
			Header: []string{"Policy", "Answered", "Wasted"},
			Rows: [][]string{
				{"Unbounded queue", "7.0%", "14,625"},
				{"Bounded queue", "69.5%", "0"},
			},
		}, "" +
			"Policy           Answered  Wasted\n" +
			"Unbounded queue      7.0%  14,625\n" +
			"Bounded queue       69.5%       0\n",
			"the first column left-aligned, the rest right-aligned, two spaces apart"},
		{"header wider", report.Table{
			Header: []string{"Window", "Back to normal"},
			Rows:   [][]string{{"0 s", "at once"}, {"120 s", "90 s"}},
		}, "" +
			"Window  Back to normal\n" +
			"0 s            at once\n" +
			"120 s             90 s\n",
			"columns as wide as their widest cell, header included"},
		{"one column", report.Table{
			Header: []string{"Policy"},
			Rows:   [][]string{{"fifo"}, {"Priority for orders"}},
		}, "Policy\nfifo\nPriority for orders\n",
			"a left-aligned last column leaves no trailing spaces"},
		{"empty last cell", report.Table{
			Header: []string{"A", "B", "C"},
			Rows:   [][]string{{"x", "1", ""}, {"yy", "", "3"}},
		}, "" +
			"A   B  C\n" +
			"x   1\n" +
			"yy     3\n",
			"an empty last cell leaves no trailing spaces"},
		{"text columns", report.Table{
			Header:      []string{"Sample", "Name", "Workers"},
			Rows:        [][]string{{"sale", "The sale", "8"}, {"bounded", "Bounded queue of 50", "8"}},
			TextColumns: 2,
		}, "" +
			"Sample   Name                 Workers\n" +
			"sale     The sale                   8\n" +
			"bounded  Bounded queue of 50        8\n",
			"the first TextColumns columns are text, aligned left"},
		{"runes", report.Table{
			Header: []string{"Policy", "Answered"},
			Rows:   [][]string{{"fifo", "6.7 ± 1.0%"}, {"skip", "19.5%"}},
		}, "" +
			"Policy    Answered\n" +
			"fifo    6.7 ± 1.0%\n" +
			"skip         19.5%\n",
			"widths count runes, not bytes"},
		{"no rows", report.Table{Header: []string{"Policy", "Answered"}},
			"Policy  Answered\n", "just the header"},
	}
	for _, tt := range tests {
		var b strings.Builder
		n, err := tt.table.WriteTo(&b)
		require.NoError(t, err, tt.name)
		assert.Equal(t, tt.want, b.String(), "%s: %s", tt.name, tt.reason)
		assert.Equal(t, int64(b.Len()), n, "%s: WriteTo returns the bytes written", tt.name)
	}
}

// TestTablesHaveNoTrailingSpaces checks every line the text writers print.
func TestTablesHaveNoTrailingSpaces(t *testing.T) {
	var b strings.Builder
	require.NoError(t, report.WriteTimelines(&b, sim.DefaultConfig()))
	v, err := report.Build(shop(retries(3)))
	require.NoError(t, err)
	require.NoError(t, report.WriteView(&b, v))
	for i, l := range strings.Split(b.String(), "\n") {
		assert.Equal(t, strings.TrimRight(l, " "), l, "line %d has trailing spaces", i+1)
	}
}

func TestComparisonTable(t *testing.T) {
	ms := func(x float64) *float64 { return &x }
	rows := []report.Row{
		{Title: "Unbounded queue", People: 8919, Answered: 0.07, TimedOut: 0.93, Orders: 1800, OrdersAnswered: 0.067, MedianWaitMS: ms(1180.16), P99WaitMS: ms(1982.976),
			Wasted: 14625, BackToNormalS: ms(90), Recovery: sim.Normal},
		{Title: "Nobody answered", People: 100, TimedOut: 1, Orders: 20, Recovery: sim.Stuck},
		{Title: "No orders", People: 100, Answered: 1, MedianWaitMS: ms(80), P99WaitMS: ms(160), BackToNormalS: ms(0), Recovery: sim.Normal},
		{Title: "Nobody arrived", Wasted: 3, BackToNormalS: ms(0), Recovery: sim.Normal},
	}
	tab := report.ComparisonTable(rows)
	assert.Equal(t, []string{"Policy", "Answered", "Refused", "Timed out", "Orders answered", "Median wait", "p99 wait", "Wasted", "Back to normal"}, tab.Header)
	assert.Equal(t, [][]string{
		{"Unbounded queue", "7.0%", "0.0%", "93.0%", "6.7%", "1,180 ms", "1,983 ms", "14,625", "90 s"},
		{"Nobody answered", "0.0%", "0.0%", "100.0%", "0.0%", "-", "-", "0", "stuck"},
		{"No orders", "100.0%", "0.0%", "0.0%", "-", "80 ms", "160 ms", "0", "at once"},
		{"Nobody arrived", "-", "-", "-", "-", "-", "-", "3", "at once"},
	}, tab.Rows, "a row per Result; no wait when nobody was answered, and no share of nobody: no orders, or nobody in the sale")
}

func TestRecoveredAndBackCell(t *testing.T) {
	s := func(x float64) *float64 { return &x }
	c := shop(retries(3)) // stuck is the retries' doing
	tests := []struct {
		back      *float64
		recovery  sim.Recovery
		recovered string
		cell      string
		reason    string
	}{
		{s(0), sim.Normal, "back to normal at once", "at once", "back in the first window after the sale"},
		{s(90), sim.Normal, "back to normal 90 s after the sale", "90 s", "the post's unbounded queue"},
		{nil, sim.Backlog, "not back by 300 s: a backlog too long for the run", "backlog", "the post's sale of 200/s"},
		{nil, sim.Stuck, "not back by 300 s: stuck, retries keep the queue full", "stuck", "the post's retries"},
		{nil, sim.Throttled, "not back by 300 s: the clients are still throttling themselves", "throttled", "adaptive throttling"},
	}
	for _, tt := range tests {
		r := sim.Result{Config: c, BackToNormalS: tt.back, Recovery: tt.recovery}
		assert.Equal(t, tt.recovered, report.Recovered(r), tt.reason)
		assert.Equal(t, tt.cell, report.BackCell(report.RowOf(r)), tt.reason)
	}
}

func TestRowOf(t *testing.T) {
	r := run(t, shop(retries(1)))
	row := report.RowOf(r)
	assert.Equal(t, report.Row{
		Policy: sim.FIFO, Title: "Unbounded queue", People: r.Sale.People, Orders: r.Sale.Orders,
		Answered: r.Sale.AnsweredShare, Refused: r.Sale.RefusedShare, TimedOut: r.Sale.TimedOutShare,
		OrdersAnswered: r.Sale.OrdersAnsweredShare, MedianWaitMS: r.Sale.MedianWaitMS, P99WaitMS: r.Sale.P99WaitMS,
		Wasted: r.Wasted, BackToNormalS: r.BackToNormalS, Recovery: r.Recovery, AttemptsPerPerson: r.AttemptsPerPerson,
	}, row, "every field from the Result")

	rs := compare(t, sim.DefaultConfig())
	rows := report.Rows(rs)
	require.Len(t, rows, len(rs))
	for i := range rs {
		assert.Equal(t, report.RowOf(rs[i]), rows[i], "row %d in order", i)
	}
	assert.Empty(t, report.Rows(nil), "no results, no rows")
}

func TestDescribe(t *testing.T) {
	tests := []struct {
		name   string
		config sim.Config
		want   string
		reason string
	}{
		{"default", shop(),
			"8 workers at 80 ms (100/s), 70/s normally and a sale of 150/s from 60 s to 120 s, a 2 s timeout, no retries, seed 1",
			"the post's shop"},
		{"no sale", shop(saleRPS(70)),
			"8 workers at 80 ms (100/s), 70/s normally and no sale, a 2 s timeout, no retries, seed 1",
			"a sale at the normal rate is no sale"},
		{"no sale length", shop(func(c *sim.Config) { c.SaleS = 0 }),
			"8 workers at 80 ms (100/s), 70/s normally and no sale, a 2 s timeout, no retries, seed 1",
			"a sale of no length is no sale"},
		{"3 retries", shop(retries(3)),
			"8 workers at 80 ms (100/s), 70/s normally and a sale of 150/s from 60 s to 120 s, a 2 s timeout, 3 retries 1 s apart, seed 1",
			"the post's client: retries a fixed delay apart"},
		{"3 retries, budget", shop(retries(3), client(sim.Budget)),
			"8 workers at 80 ms (100/s), 70/s normally and a sale of 150/s from 60 s to 120 s, a 2 s timeout, up to 3 retries, retry budget (token bucket), seed 1",
			"another client: up to, and which"},
		{"3 retries, throttle", shop(retries(3), client(sim.Throttle)),
			"8 workers at 80 ms (100/s), 70/s normally and a sale of 150/s from 60 s to 120 s, a 2 s timeout, up to 3 retries, adaptive throttling, seed 1",
			"throttling clients with retries"},
		{"throttle, no retries", shop(client(sim.Throttle)),
			"8 workers at 80 ms (100/s), 70/s normally and a sale of 150/s from 60 s to 120 s, a 2 s timeout, no retries, adaptive throttling, seed 1",
			"throttling matters even without retries"},
		{"budget, no retries", shop(client(sim.Budget)),
			"8 workers at 80 ms (100/s), 70/s normally and a sale of 150/s from 60 s to 120 s, a 2 s timeout, no retries, seed 1",
			"a budget without retries changes nothing"},
		{"1 worker", shop(func(c *sim.Config) { c.Workers = 1 }),
			"1 worker at 80 ms (12.5/s), 70/s normally and a sale of 150/s from 60 s to 120 s, a 2 s timeout, no retries, seed 1",
			"one worker, singular"},
		{"13 workers, 4 s, seed 7", shop(func(c *sim.Config) { c.Workers, c.TimeoutMS, c.Seed, c.SaleRPS = 13, 4000, 7, 162.5 }),
			"13 workers at 80 ms (162.5/s), 70/s normally and a sale of 162.5/s from 60 s to 120 s, a 4 s timeout, no retries, seed 7",
			"decimals and other numbers"},
	}
	for _, tt := range tests {
		assert.Equal(t, tt.want, report.Describe(tt.config), "%s: %s", tt.name, tt.reason)
	}
}

// TestDescribeOneRetry fails on a bug: Describe says "1 retries 1 s apart"
// (and "up to 1 retries, ..."), and WriteClients, which uses the same
// words, "up to 1 retries". Advise already says "With 1 retry". The fix: a
// singular "retry" when Retries is 1 in Describe and WriteClients.
func TestDescribeOneRetry(t *testing.T) {
	tests := []struct {
		name   string
		config sim.Config
		want   string
		reason string
	}{
		{"fixed", shop(retries(1)), ", 1 retry 1 s apart,", "the post's --retries 1"},
		{"backoff", shop(retries(1), client(sim.Backoff)), ", up to 1 retry, backoff with full jitter,", "another client"},
	}
	for _, tt := range tests {
		assert.Contains(t, report.Describe(tt.config), tt.want, "%s: %s", tt.name, tt.reason)
	}
}

func TestAboutTheNumbers(t *testing.T) {
	c := shop()
	c.Seed = 7
	about := report.AboutTheNumbers(c)
	assert.Contains(t, about, "One run, seed 7.")
	assert.Contains(t, about, "first arrived during the sale")
	assert.Contains(t, about, "Back to normal: the first 10 s after the sale")
	assert.Contains(t, report.AboutTheNumbers(shop(saleRPS(70))), "first arrived from 60 s to 120 s (no sale)")
}

// TestSharesOfNobody: a share with nobody under it (a sale of no length,
// a sale rate of 0, no orders) prints as "-", never as "0.0%", which would
// read as everyone failing; and a run with nobody after the sale is
// unmeasured, not "overloaded even at normal traffic".
func TestSharesOfNobody(t *testing.T) {
	for _, tt := range []struct {
		name   string
		config sim.Config
		nobody string
	}{
		{"a sale of no length", shop(func(c *sim.Config) { c.SaleS = 0 }), "nobody arrived in a sale of 0 s"},
		{"a sale rate of 0", shop(saleRPS(0)), "nobody arrived during the sale"},
	} {
		v, err := report.Build(tt.config)
		require.NoError(t, err, tt.name)
		for _, row := range report.ComparisonTable(v.Rows).Rows {
			assert.Equal(t, []string{"-", "-", "-", "-", "-", "-"}, row[1:7], "%s, %s: no share and no wait of nobody", tt.name, row[0])
		}
		assert.Equal(t, tt.nobody, report.SaleShares(v.Chosen), tt.name)
		require.Len(t, v.Advice, 1, "%s: one piece of advice", tt.name)
		assert.Contains(t, v.Advice[0].Text, "nothing to compare", tt.name)
		assert.Equal(t, tt.config, v.Advice[0].Config, "%s: nothing to try", tt.name)

		var b strings.Builder
		require.NoError(t, report.WriteView(&b, v), tt.name)
		assert.NotContains(t, b.String(), "0.0% of", "%s: no sentence gives a share of nobody", tt.name)
	}

	// No orders: the orders column alone says so.
	noOrders := report.ComparisonTable(report.Rows(compare(t, shop(func(c *sim.Config) { c.OrderShare = 0 })))).Rows
	for _, row := range noOrders {
		assert.Equal(t, "-", row[4], "%s: no orders, no share of them", row[0])
		assert.NotEqual(t, "-", row[1], "%s: the people's shares are still there", row[0])
	}

	// No traffic at all: the client comparison has no attempts per person
	// and no share of retries in the load.
	cv, err := report.BuildClients(shop(normalRPS(0), saleRPS(0), retries(3)))
	require.NoError(t, err)
	for _, row := range report.ClientTable(cv.Rows).Rows {
		assert.Equal(t, []string{"-", "-", "-", "-", "-", "nobody after"}, row[1:], "%s: nothing sent, nothing to share", row[0])
	}

	// A sale on an idle service: nobody arrives after it.
	for _, r := range compare(t, shop(normalRPS(0))) {
		assert.Nil(t, r.BackToNormalS, r.Config.Policy)
		assert.Equal(t, sim.Unmeasured, r.Recovery, "%v: nobody after the sale to measure", r.Config.Policy)
		assert.NotContains(t, report.ThisRun(r).Text+report.Outlook(r).Text, "overloaded", r.Config.Policy)
		assert.Equal(t, "not measured: nobody arrived after the sale", report.Recovered(r), r.Config.Policy)
		assert.Equal(t, "nobody after", report.BackCell(report.RowOf(r)), r.Config.Policy)
		assert.True(t, strings.HasPrefix(report.ThisRun(r).Text, "not measured: nobody arrived after the sale, so there is no one to be back to normal for"),
			"%v: %s", r.Config.Policy, report.ThisRun(r).Text)
	}
	v, err := report.Build(shop(normalRPS(0), retries(3), policy(sim.Bounded)))
	require.NoError(t, err)
	require.NotEmpty(t, v.Advice)
	for _, a := range v.Advice {
		assert.NotContains(t, a.Text, "not measured", "the advice leaves out a return it could not measure")
		assert.NotContains(t, a.Text, "retry budget (a token bucket", "nothing is stuck, so no budget is offered")
	}
}

// TestWordsAReaderTripsOn: what a reader of the post tripped on (issue 14,
// item 13) reads plainly now.
func TestWordsAReaderTripsOn(t *testing.T) {
	var tl strings.Builder
	require.NoError(t, report.WriteTimelines(&tl, sim.DefaultConfig()))
	for _, p := range sim.Policies {
		assert.Contains(t, tl.String(), "  "+p.Title(), "the timeline's columns are the policies' names")
	}
	assert.NotContains(t, tl.String(), "Window     fifo", "not their keys")
	assert.Regexp(t, `\nPolicy +Recovery\n`, tl.String(), "the closing table's header does not say back to normal again")
	assert.Contains(t, tl.String(), "back to normal 90 s after the sale\n")

	one := func(c sim.Config) string {
		v, err := report.Build(c)
		require.NoError(t, err)
		var b strings.Builder
		require.NoError(t, report.WriteView(&b, v))
		return b.String()
	}
	c := sim.DefaultConfig()
	c.Retries, c.Policy = 1, sim.FIFO
	out := one(c)
	lines := strings.Split(out, "\n")
	require.Greater(t, len(lines), 3)
	assert.Equal(t, "This run, the unbounded queue: 7.0% of the sale's people answered, 93.0% timed out, none refused; not back by 300 s: stuck, retries keep the queue full.", lines[2],
		"one run leads with that run, before every policy and every client")
	assert.Less(t, strings.Index(out, "This run, the unbounded queue"), strings.Index(out, "Every policy"))
	assert.NotContains(t, out, "Retries in load", "the clients' column says what it counts")
	assert.Contains(t, out, "Retries among all attempts (run)")
	assert.Regexp(t, `Adaptive throttling's Refused counts the people its clients refused themselves, as well as those the service refused: the clients refused [0-9,]+ attempts before sending them\.`, out)

	quiet := sim.DefaultConfig()
	quiet.SaleRPS = quiet.NormalRPS
	assert.NotContains(t, one(quiet), "The fluid view: after the sale", "no sale, no after the sale")
	var tables strings.Builder
	require.NoError(t, report.WritePostTables(&tables, quiet))
	assert.NotContains(t, tables.String(), "The fluid view: after the sale", "nor in the post's tables")
	assert.Contains(t, one(sim.DefaultConfig()), "The fluid view: after the sale", "with a sale it is there")
}

// TestPolicyGroups: every policy's tables keep the post's six together
// under their own title and the limits under theirs; the post's own
// tables, one family, carry no titles, so they print as the post does.
func TestPolicyGroups(t *testing.T) {
	assert.Nil(t, report.PolicyGroups(sim.PostPolicies), "the post's tables are the post's")
	g := report.PolicyGroups(sim.Policies)
	require.Len(t, g, 2)
	assert.Equal(t, report.RowGroup{Title: "The post's policies", From: 0}, g[0])
	assert.Equal(t, report.RowGroup{Title: "Adaptive concurrency limits", From: len(sim.PostPolicies)}, g[1])
	for _, p := range sim.Policies[len(sim.PostPolicies):] {
		assert.Equal(t, "Adaptive concurrency limits", p.Group(), p.String())
	}

	var b strings.Builder
	_, err := report.Table{
		Header: []string{"Policy", "Answered"},
		Rows:   [][]string{{"a", "1%"}, {"b", "2%"}, {"c", "3%"}},
		Groups: []report.RowGroup{{Title: "First", From: 0}, {Title: "Second", From: 2}},
	}.WriteTo(&b)
	require.NoError(t, err)
	assert.Equal(t, "Policy  Answered\nFirst\na             1%\nb             2%\n\nSecond\nc             3%\n", b.String())
}
