package report_test

import (
	"bytes"
	"encoding/json"
	"io"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/shedsim/shedsim/sim"
	"github.com/shedsim/shedsim/sim/report"
)

// The golden tests' names start with Golden so that the Makefile's arm64
// step (ARM64_RUN, -run 'Golden|^Test(Exp|Log)' ./sim/...) runs them under qemu, where a
// fused multiply-add would change the chart's geometry; make test-node runs
// them under Node. The same files must match on every platform.

func TestGoldenJSON(t *testing.T) {
	tests := []struct {
		file   string
		build  func() (any, error)
		reason string
	}{
		{"view-default.json", func() (any, error) { return report.Build(sim.DefaultConfig()) },
			"the simulator page for the post's shop: rows, chart, lines, advice"},
		{"view-fifo-retries3.json", func() (any, error) { return report.Build(shop(retries(3))) },
			"the page for the metastable failure: stuck, with retry advice"},
		{"clients-fifo-retries3.json", func() (any, error) { return report.BuildClients(shop(retries(3))) },
			"every client strategy with the unbounded queue and 3 retries"},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			v, err := tt.build()
			require.NoError(t, err, tt.reason)
			b, err := json.MarshalIndent(v, "", "  ")
			require.NoError(t, err, tt.reason)
			golden(t, tt.file, append(b, '\n'))
		})
	}
}

func TestGoldenText(t *testing.T) {
	tests := []struct {
		file   string
		write  func(w io.Writer) error
		reason string
	}{
		{"post-tables-default.txt", func(w io.Writer) error { return report.WritePostTables(w, sim.DefaultConfig()) },
			"the post's tables, as the command line prints them"},
		{"timelines-default.txt", func(w io.Writer) error { return report.WriteTimelines(w, sim.DefaultConfig()) },
			"--timeline: answered per 10 s, every policy"},
		{"view-default.txt", func(w io.Writer) error {
			v, err := report.Build(sim.DefaultConfig())
			if err != nil {
				return err
			}
			return report.WriteView(w, v)
		}, "one run as the page shows it"},
		{"view-fifo-retries3.txt", func(w io.Writer) error {
			v, err := report.Build(shop(retries(3)))
			if err != nil {
				return err
			}
			return report.WriteView(w, v)
		}, "one run with retries: the view ends with the client comparison"},
		{"clients-fifo-retries3.txt", func(w io.Writer) error {
			v, err := report.BuildClients(shop(retries(3)))
			if err != nil {
				return err
			}
			return report.WriteClients(w, v)
		}, "--clients --retries 3"},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			var b bytes.Buffer
			require.NoError(t, tt.write(&b), tt.reason)
			golden(t, tt.file, b.Bytes())
		})
	}
}

func TestBuild(t *testing.T) {
	tests := []struct {
		name   string
		config sim.Config
		reason string
	}{
		{"default", shop(), "the post's shop"},
		{"bounded", shop(policy(sim.Bounded)), "the bounded queue: its bound resolved"},
		{"envoy", shop(policy(sim.Priority), queue(1024)), "a bound given"},
		{"codel, 3 retries", shop(policy(sim.CoDel), retries(3)), "retries: more fluid lines"},
	}
	for _, tt := range tests {
		v, err := report.Build(tt.config)
		require.NoError(t, err, tt.name)
		c := tt.config
		r := run(t, c)
		assert.Equal(t, c, v.Config, "%s: the config as given", tt.name)
		assert.Equal(t, c.QueueBound(), v.QueueBound, "%s: %s", tt.name, tt.reason)
		assert.Equal(t, c.QueueSeconds(), v.QueueSeconds, tt.name)
		assert.Equal(t, c.CapacityRPS(), v.CapacityRPS, tt.name)
		assert.Equal(t, report.Rows(compare(t, c)), v.Rows, "%s: every policy, in order", tt.name)
		assert.Equal(t, r, v.Chosen, "%s: the chosen policy's full Result", tt.name)
		assert.Equal(t, report.Timeline(r), v.Chart, tt.name)
		assert.Equal(t, report.Outlook(r), v.Outlook, tt.name)
		assert.Equal(t, report.ThisRun(r), v.ThisRun, tt.name)
		assert.Equal(t, report.Fluid(c), v.Fluid, tt.name)
		adv, err := report.Advise(c, compare(t, c))
		require.NoError(t, err)
		assert.Equal(t, adv, v.Advice, tt.name)
	}
}

// TestBuildChosen: the view of c's own run alone is BuildCompared's with
// no Rows, so that a page can draw it first and add the other policies as
// they are run: the chosen policy's Result does not depend on the batch.
func TestBuildChosen(t *testing.T) {
	for _, c := range []sim.Config{shop(), shop(policy(sim.Priority), queue(1024)), shop(policy(sim.CoDel), retries(3), client(sim.Budget)),
		shop(normalRPS(0)), shop(func(c *sim.Config) { c.SaleS = 0 })} {
		want, _, err := report.BuildCompared(c)
		require.NoError(t, err)
		want.Rows = nil
		got, err := report.BuildChosen(c)
		require.NoError(t, err)
		assert.Equal(t, want, got, "%v, %v", c.Policy, c.Client)
	}
	_, err := report.BuildChosen(shop(func(c *sim.Config) { c.Workers = 0 }))
	assert.Equal(t, shop(func(c *sim.Config) { c.Workers = 0 }).Validate(), err, "the validation errors, unchanged")
}

func TestBuildDefaultNumbers(t *testing.T) {
	v, err := report.Build(sim.DefaultConfig())
	require.NoError(t, err)
	assert.Equal(t, 50, v.QueueBound, "the automatic bound at the shop's numbers")
	assert.Equal(t, 0.5, v.QueueSeconds, "50 at 100/s is half a second")
	assert.Equal(t, 100.0, v.CapacityRPS, "8 workers at 80 ms")
	require.Len(t, v.Rows, len(sim.Policies))
	for i, p := range sim.Policies {
		assert.Equal(t, p, v.Rows[i].Policy, "row %d is %v", i, p)
		assert.Equal(t, p.Title(), v.Rows[i].Title, "row %d's title", i)
	}
	assert.Equal(t, "Once everyone times out", v.Outlook.Label)
	assert.Equal(t, "This run", v.ThisRun.Label)
}

func TestBuildInvalid(t *testing.T) {
	tests := []struct {
		name   string
		change func(*sim.Config)
		field  string
		reason string
	}{
		{"no workers", func(c *sim.Config) { c.Workers = 0 }, "workers", "a service needs a worker"},
		{"sale too late", func(c *sim.Config) { c.SaleStartS = 295 }, "sale_s", "no window after the sale to show recovery"},
		{"negative retries", func(c *sim.Config) { c.Retries = -1 }, "retries", "retries are a count"},
	}
	for _, tt := range tests {
		c := shop(tt.change)
		want := c.Validate()
		require.Error(t, want, tt.name)

		_, err := report.Build(c)
		require.Error(t, err, "%s: %s", tt.name, tt.reason)
		assert.Equal(t, want.Error(), err.Error(), "%s: Build returns the validation errors unchanged", tt.name)
		fes := sim.FieldErrors(err)
		require.NotEmpty(t, fes, tt.name)
		assert.Equal(t, tt.field, fes[0].Field, tt.name)

		_, err = report.BuildClients(c)
		assert.Equal(t, want.Error(), err.Error(), "%s: BuildClients too", tt.name)
		_, err = report.Compare(c)
		assert.Equal(t, want.Error(), err.Error(), "%s: Compare too", tt.name)
		assert.Error(t, report.WritePostTables(io.Discard, c), tt.name)
		assert.Error(t, report.WriteTimelines(io.Discard, c), tt.name)
	}
}

func TestWritersReportWriteErrors(t *testing.T) {
	c := sim.DefaultConfig()
	v, err := report.Build(shop(retries(3)))
	require.NoError(t, err)
	cv, err := report.BuildClients(shop(retries(3)))
	require.NoError(t, err)
	tests := []struct {
		name  string
		write func(io.Writer) error
	}{
		{"WritePostTables", func(w io.Writer) error { return report.WritePostTables(w, c) }},
		{"WriteTimelines", func(w io.Writer) error { return report.WriteTimelines(w, c) }},
		{"WriteView", func(w io.Writer) error { return report.WriteView(w, v) }},
		{"WriteClients", func(w io.Writer) error { return report.WriteClients(w, cv) }},
	}
	for _, tt := range tests {
		assert.ErrorIs(t, tt.write(errWriter{}), errWrite, "%s returns the writer's error", tt.name)
	}
}

func TestCompare(t *testing.T) {
	c := shop(retries(1), refusalCost(20))
	rs, err := report.Compare(c)
	require.NoError(t, err)
	require.Len(t, rs, len(sim.Policies))
	for i, p := range sim.Policies {
		want := c
		want.Policy = p
		assert.Equal(t, want, rs[i].Config, "result %d is %v with everything else the same", i, p)
		assert.Equal(t, run(t, want), rs[i], "result %d is what sim.Run gives", i)
	}
}
