package markup

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/shedsim/shedsim/sim"
	"github.com/shedsim/shedsim/sim/report"
	"github.com/shedsim/shedsim/sim/sweep"
	"github.com/shedsim/shedsim/wasm/adapter"
)

// tick at it; the table is shedsim --seeds' rows, the chosen one marked.
func TestWriteSeedBars(t *testing.T) {
	c := sim.DefaultConfig()
	sums := make([]report.SeedSummary, len(sim.Policies))
	for i, p := range sim.Policies {
		for k := range 3 {
			cp := c
			cp.Policy, cp.Seed = p, c.Seed+uint64(k)
			r, err := sim.Run(cp)
			require.NoError(t, err)
			sums[i].Add(r)
		}
	}
	v := report.SeedsViewOf(c, 3, sim.Policies, sums)
	var m Markup
	WriteSeedBars(&m, v, sim.Bounded)
	bars := m.String()
	assert.Equal(t, len(sim.Policies), strings.Count(bars, `<line class="seed-range"`), "a range a policy")
	assert.Equal(t, 3, strings.Count(bars, `<line class="post-mark"`), "the post's figure for fifo, skip and bounded")
	assert.Equal(t, len(sim.Policies), strings.Count(bars, "</svg>"))
	assert.Contains(t, bars, `class="policy-bar chosen" data-policy="bounded"`)
	assert.Contains(t, bars, "back in 3 of 3 seeds")
	m = Markup{}
	WriteTable(&m, "compare", "compare seeds", v.Caption, "Every policy over seeds", "policy", v.Table, adapter.PolicyKeys, sim.Bounded.String(), false)
	table := m.String()
	assert.Contains(t, table, `class="compare seeds"`)
	assert.Contains(t, table, `data-policy="bounded" class="chosen"`)
	for _, cell := range v.Table.Rows[sim.FIFO] {
		assert.Contains(t, table, ">"+cell+"<", "every cell of the command line's table")
	}
}

// now marked, and a map's cells each a button that sets both values.
func TestTipsMarkup(t *testing.T) {
	vals := adapter.TipsValues(adapter.TipsSweep, map[string]string{"from": "100", "to": "200", "steps": "5", "seeds": "2", "retries": "1"})
	s, errs := adapter.SweepFromStrings(vals)
	require.Empty(t, errs)
	sw, err := sweep.Run(s)
	require.NoError(t, err)
	chart := SweepMarkup("c", report.Sweep(sw), "sale_rps").String()
	assert.Contains(t, chart, `>Sale traffic (people per s)</text>`, "the axis is named in words, not by its key")
	n := len(sim.Policies)
	assert.Equal(t, 5*n, strings.Count(chart, `<circle class="pt pol-`), "a point per policy and step")
	assert.Equal(t, n, strings.Count(chart, `data-set="150"`), "each sets its value")
	assert.Contains(t, chart, `class="now-line"`, "the value now is marked")
	assert.Contains(t, chart, `<path class="flip pol-fifo"`, "the unbounded queue's flip")
	table := SweepTableMarkup("t", sw).String()
	assert.Contains(t, table, `<th scope="col">Sale traffic (people per s)</th>`, "the column is named in words, not by its key")
	assert.Equal(t, n, strings.Count(table, `class="now" aria-current="true"`), "a row per policy at the value now")
	assert.Equal(t, 5*n, strings.Count(table, `<button type="button" class="set" data-set=`), "a button per row")
	assert.Contains(t, table, "<li>Unbounded queue: From ", "the marks under the table")

	m, errs := adapter.MapFromStrings(adapter.TipsValues(adapter.TipsMap, map[string]string{"x_steps": "3", "x_to": "200", "y_steps": "2", "y_to": "1", "seeds": "2"}))
	require.Empty(t, errs)
	mp, err := sweep.RunMap(m)
	require.NoError(t, err)
	cells := MapMarkup("c", report.Map(mp)).String()
	assert.Equal(t, 6, strings.Count(cells, `<rect class="cell back-`), "every cell coloured")
	assert.Contains(t, cells, `class="now-cell"`, "the cell now outlined")
	mt := MapTableMarkup("t", mp).String()
	assert.Equal(t, 6, strings.Count(mt, `data-set-x=`), "a button per cell")
	assert.Contains(t, mt, `title="sale_rps 200/s, 1 retry: `, "a cell's words")
}
