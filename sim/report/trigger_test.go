package report_test

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/shedsim/shedsim/sim"
	"github.com/shedsim/shedsim/sim/report"
)

// TestIncidentWords: a run with no sale, triggered by an incident, speaks
// of the incident everywhere a reader meets its numbers (the lines under
// the chart, the recovery words, the advice, the chart's band and summary,
// the windows' marks) and never of a sale that did not happen; the one
// mention of a sale is that there is none.
func TestIncidentWords(t *testing.T) {
	tests := []struct {
		reason, sample, trigger string
		want                    []string // in the printed view
	}{
		{"the deploy, no retries: the queue drains", "deploy", "the loss of 3 workers",
			[]string{"with 5 of 8 workers, 62.5/s against 70/s arriving: the queue grows 7.5/s, about 225 requests in its 30 s",
				"back to normal 10 s after the loss of 3 workers", "Or keep 3 spare: with 11 workers"}},
		{"the deploy with retries: stuck", "deploy-retries", "the loss of 3 workers",
			[]string{"70/s x 4 = 280/s against 100/s: once the queue holds more than 2 s of work it never drains, even after the loss of 3 workers",
				"stuck: not back by 300 s. Retries keep the queue full"}},
		{"the slow dependency", "slow-dependency", "the slowdown",
			[]string{"with service 3x slower (240 ms), 33.33/s against 70/s arriving: the queue grows 36.67/s, about 733 requests in its 20 s",
				"after the slowdown"}},
	}
	for _, tt := range tests {
		t.Run(tt.reason, func(t *testing.T) {
			s, ok := sim.SampleByKey(tt.sample)
			require.True(t, ok)
			c := s.Config
			assert.Equal(t, tt.trigger, report.Trigger(c))
			v, err := report.Build(c)
			require.NoError(t, err)
			var b strings.Builder
			require.NoError(t, report.WriteView(&b, v))
			text := b.String()
			for _, w := range tt.want {
				assert.Contains(t, text, w)
			}
			said := []string{v.Outlook.String(), v.ThisRun.String(), v.Chart.Summary, report.SaleBand(c), report.AboutTheNumbers(c),
				report.Recovered(v.Chosen), report.SalePeople(c), report.Arrived(c)}
			for _, a := range v.Advice {
				said = append(said, a.Text)
			}
			said = append(said, v.Fluid...)
			for _, line := range said {
				assert.NotContains(t, strings.ToLower(line), "sale", "a run with no sale speaks of %s: %q", tt.trigger, line)
			}
			// (The client table's header, shared with every run, keeps
			// "Attempts per person (sale)".)
			text = strings.ReplaceAll(text, "Attempts per person (sale)", "")
			assert.Equal(t, strings.Count(text, "sale"), strings.Count(text, "no sale"), "the view mentions a sale only to say there is none")
			assert.Positive(t, v.Chart.Sale.W, "the chart shades %s", tt.trigger)
			table, marked := report.WindowTable(v.Chosen)
			n := 0
			for i, in := range marked {
				if in {
					n++
					assert.Contains(t, table.Rows[i][0], "(", "a marked window says what marks it")
				}
			}
			assert.Equal(t, int((c.PeopleEndS()-c.PeopleStartS())/10), n, "the incident's windows are marked")
		})
	}
}

// TestIncidentFluidAfter: the fluid view says what the capacity does once
// the incident is over: drains, never drains, or does not come back.
func TestIncidentFluidAfter(t *testing.T) {
	tests := []struct {
		reason string
		change func(*sim.Config)
		want   string
	}{
		{"a short loss: the queue stays under a timeout's worth and drains", func(c *sim.Config) {
			c.SaleRPS, c.LossWorkers, c.LossStartS, c.LossS = 70, 3, 60, 10
		}, "about 75 requests in its 10 s. Once it is over, 100/s against 70/s: it drains at 30/s."},
		{"a loss the workers keep up with", func(c *sim.Config) {
			c.SaleRPS, c.LossWorkers, c.LossStartS, c.LossS = 70, 1, 60, 30
		}, "with 7 of 8 workers, 87.5/s against 70/s arriving: the workers keep up, with 17.5/s to spare."},
		{"a loss for the rest of the run", func(c *sim.Config) {
			c.SaleRPS, c.LossWorkers, c.LossStartS = 70, 4, 60
		}, "50/s against 70/s arriving: the queue grows 20/s, for the rest of the run: the capacity does not come back."},
		{"a loss in the sale meets the sale's arrivals", func(c *sim.Config) {
			c.LossWorkers, c.LossStartS, c.LossS = 2, 70, 20
		}, "with 6 of 8 workers, 75/s against 150/s arriving: the queue grows 75/s"},
	}
	for _, tt := range tests {
		t.Run(tt.reason, func(t *testing.T) {
			c := sim.DefaultConfig()
			tt.change(&c)
			require.NoError(t, c.Validate())
			assert.Contains(t, strings.Join(report.IncidentFluid(c), "\n"), tt.want)
		})
	}
}

// TestLoadWords: latency that grows with the queue explains its collapse
// with the fluid view (the capacity falls under the normal traffic past a
// tipping point) and blames no retry, since there are none.
func TestLoadWords(t *testing.T) {
	s, ok := sim.SampleByKey("gc-collapse")
	require.True(t, ok)
	v, err := report.BuildChosen(s.Config)
	require.NoError(t, err)
	assert.Contains(t, v.Outlook.Text, "under the 70/s the normal traffic sends once 300 wait, and from there the queue only grows, even at normal traffic and with no retries")
	assert.Contains(t, v.Outlook.Text, "a queue shorter than 300 drains once the sale ends")
	assert.Contains(t, v.ThisRun.Text, "Its queue is past the tipping point")
	assert.NotContains(t, v.ThisRun.Text, "Retries", "no retry keeps it down")
	assert.Contains(t, report.Recovered(v.Chosen), "its queue slows the service below the normal traffic")

	b, ok := sim.SampleByKey("gc-collapse-bounded")
	require.True(t, ok)
	v, err = report.BuildChosen(b.Config)
	require.NoError(t, err)
	assert.Contains(t, v.Outlook.Text, "A bound of 50 keeps it short of that: at most 1.05x as long, 95/s.")
	assert.Equal(t, "back to normal at once.", v.ThisRun.Text)
}

// TestChartOutlinesIncidents: in a run with a sale, the chart's band is the
// sale and a loss or a slowdown is outlined beside it, named; with no sale
// the incident is the band.
func TestChartOutlinesIncidents(t *testing.T) {
	c := sim.DefaultConfig()
	c.LossWorkers, c.LossStartS, c.LossS = 2, 150, 30
	ch := report.Timeline(run(t, c))
	require.Len(t, ch.Incidents, 1)
	assert.Equal(t, "loss", ch.Incidents[0].Label)
	assert.Greater(t, ch.Incidents[0].X, ch.Sale.X+ch.Sale.W, "the loss comes after the sale")
	assert.InDelta(t, ch.Sale.W/2, ch.Incidents[0].W, 1e-9, "30 s against the sale's 60 s")
	assert.Empty(t, ch.BandLabel, "the band is the sale's")

	s, ok := sim.SampleByKey("slow-dependency")
	require.True(t, ok)
	ch = report.Timeline(run(t, s.Config))
	assert.Empty(t, ch.Incidents, "with no sale the slowdown is the band")
	assert.Equal(t, "slowdown", ch.BandLabel)
	assert.Positive(t, ch.Sale.W)
}
