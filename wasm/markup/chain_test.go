package markup

import (
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/shedsim/shedsim/sim"
	"github.com/shedsim/shedsim/sim/report"
)

// chainHops is a checkout's chain: payments, then a bank too small for
// the sale, each behind a proxy that retries once.
const chainHops = "payments: workers=16 service_ms=30 timeout_ms=1500 per_try_timeout_ms=700 retries=1 backoff=envoy backoff_base_ms=25 backoff_max_ms=250\n" +
	"bank: workers=6 service_ms=60 timeout_ms=600 per_try_timeout_ms=250 retries=1 backoff=envoy backoff_base_ms=25 backoff_max_ms=250"

func chainView(t *testing.T) report.View {
	c := sim.DefaultConfig()
	c.Workers, c.ServiceMS, c.Hops = 24, 20, chainHops
	v, err := report.BuildChosen(c)
	require.NoError(t, err)
	require.NotNil(t, v.Chain)
	return v
}

// TestWriteChain: the services as an ordered list, the entry first, each
// box's text in words (an arrow is drawn by the stylesheet, not written),
// the bottleneck marked; the chain's table, lines and fluid view; a box
// per hop for its chart, which is written only when asked.
func TestWriteChain(t *testing.T) {
	v := chainView(t)
	var m Markup
	WriteChain(&m, "w1-", v, false)
	html := m.String()
	items := regexp.MustCompile(`<li class="chain-service[^"]*"><strong class="chain-name">([^<]*)</strong>`).FindAllStringSubmatch(html, -1)
	require.Len(t, items, 3, "a box a service")
	assert.Equal(t, []string{"checkout (entry)", "payments", "bank"}, []string{items[0][1], items[1][1], items[2][1]}, "in the order of the calls")
	assert.Contains(t, html, `<ol class="chain-boxes" aria-labelledby="w1-chain-title">`, "a list, named by its heading")
	assert.Contains(t, html, `<h3 id="w1-chain-title">The chain, with the unbounded queue at the entry</h3>`)
	assert.Contains(t, html, `<li class="chain-service bottleneck"><strong class="chain-name">bank</strong><span>6 workers, 100/s</span>`,
		"the bank is the bottleneck (report.ChainBottleneck), marked, and its workers and capacity in words")
	assert.Contains(t, html, `<span class="chain-tries">×2: 1 retry</span><span class="chain-flag">the bottleneck</span></li>`, "its multiplier and its flag")
	assert.Contains(t, html, `<span class="chain-tries">×1: no retries</span>`, "the entry's people retry nothing")
	assert.NotContains(t, html, "→", "the arrows are the stylesheet's")
	assert.Contains(t, html, `<table id="w1-chain-table" class="compare chain-table"><caption>`+report.ChainCaption(v.Config)+`</caption>`)
	for _, cell := range report.ChainTable(*v.Chain).Rows[2] {
		assert.Contains(t, html, ">"+cell+"<", "every cell of the command line's table")
	}
	assert.Contains(t, html, `<p class="line" id="w1-chain-bottleneck"><strong>Bottleneck:</strong>`)
	for _, l := range v.Chain.Fluid {
		assert.Contains(t, html, "<li>"+l+"</li>", "the fluid view, a line a service")
	}
	assert.Contains(t, html, `<div class="chain-chart" id="w1-chain-1"></div><div class="chain-chart" id="w1-chain-2"></div>`, "an empty box a hop")

	m = Markup{}
	WriteChain(&m, "", v, true)
	html = m.String()
	assert.Contains(t, html, `<div class="chain-chart" id="chain-2"><h4>Calls to bank over time</h4><figure class="chart"><svg id="chain-2-chart" class="timeline" role="img"`,
		"with charts, each hop's box holds its chart")
	assert.Contains(t, html, `<table id="chain-2-chart-table" class="windows">`, "and its windows as a table")
	assert.Contains(t, html, `<rect class="sale" `, "the hop's chart shades the entry's sale (report.HopRun)")

	m = Markup{}
	WriteChain(&m, "", report.ChosenView(sim.DefaultConfig(), sim.Result{}), true)
	assert.Empty(t, m.String(), "no chain, nothing written")
}

// TestHopsField: the hops' field says how to fill it, then which way the
// calls go, and lists the hops in words; text that does not read says
// nothing there (its error, with its line, is the field's message).
func TestHopsField(t *testing.T) {
	c := sim.DefaultConfig()
	assert.True(t, HasHint("hops"))
	assert.Contains(t, TableHint("hops", c), "a hop a line", "empty: how to fill it")
	c.Hops = chainHops
	assert.Equal(t, "The calls go checkout (entry), then payments, then bank; the results draw the chain under the chart.", TableHint("hops", c))
	var m Markup
	WriteTablePreview(&m, "hops", c)
	assert.Equal(t, `<ol class="hops-preview"><li>payments: 16 workers at 30 ms (533.3/s), a 1,500 ms timeout on the whole call, its proxy making up to 1 retry, 700 ms a try</li>`+
		`<li>bank: 6 workers at 60 ms (100/s), a 600 ms timeout on the whole call, its proxy making up to 1 retry, 250 ms a try</li></ol>`, m.String())
	c.Hops = "payments: workers=4 service_ms=50 timeout_ms=1000\nbank: workers=x"
	assert.Empty(t, TableHint("hops", c), "text that does not read: no hint")
	m = Markup{}
	WriteTablePreview(&m, "hops", c)
	assert.Empty(t, m.String(), "and no list")
	err := c.Validate()
	require.Error(t, err)
	assert.Contains(t, sim.FieldErrors(err)[0].Msg, "line 2, column 1: hop 2 (bank): workers: x is not a whole number", "the field's message names the line")
	assert.Equal(t, "hops", sim.FieldErrors(err)[0].Field)
	assert.True(t, strings.HasPrefix(tableHelp["hops"], "Type the services"), "the help for an empty field")
}
