package adapter

import (
	"encoding/json"
	"fmt"
	"math"
	"reflect"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/shedsim/shedsim/sim"
	"github.com/shedsim/shedsim/sim/plan"
	"github.com/shedsim/shedsim/sim/report"
)

// answer is any of the adapter's JSON answers.
type answer struct {
	View   *report.View     `json:"view"`
	Errors []FieldMsg       `json:"errors"`
	Error  *string          `json:"error"`
	Plan   *json.RawMessage `json:"plan"`
}

func decode(t *testing.T, s string) answer {
	t.Helper()
	var a answer
	require.NoError(t, json.Unmarshal([]byte(s), &a), "answer is not JSON: %s", s)
	return a
}

func fields(errs []FieldMsg) []string {
	out := []string{}
	for _, e := range errs {
		out = append(out, e.Field)
	}
	return out
}

func TestConfigFieldsMatchJSONTags(t *testing.T) {
	var tags []string
	var fields []reflect.StructField // the Config's, those of the structs it embeds in their place
	for _, f := range reflect.VisibleFields(reflect.TypeFor[sim.Config]()) {
		if !f.Anonymous {
			fields = append(fields, f)
			tags = append(tags, strings.Split(f.Tag.Get("json"), ",")[0])
		}
	}
	assert.Equal(t, tags, ConfigKeys(), "configFields must list every sim.Config JSON key, in field order")

	// Every field survives a round trip through its string form: each is
	// given a value that is neither the default's nor the base's.
	c := sim.Config{
		Policy: sim.LIFO, Workers: 13, ServiceMS: 42.5, Service: sim.LognormalService, ServiceP99MS: 300,
		NormalRPS: 60.5, SaleRPS: 140.25, SaleStartS: 30, SaleS: 45.5, DurationS: 200, TimeoutMS: 1500,
		Patience: sim.ExponentialPatience, PatienceMS: 900, Retries: 2,
		RetryDelayMS: 750, RetryJitterMS: 7, Queue: 1024, RefusalCostMS: 3.5,
		OrderShare: 0.35, CoDelTargetMS: 7.5, CoDelIntervalMS: 150, Client: sim.Ratio,
		BackoffBaseMS: 500, BackoffCapMS: 9000, BudgetTokens: 400, BudgetRefusalCost: 4,
		BudgetTimeoutCost: 8, BudgetRefill: 2, RatioMax: 0.15, ThrottleK: 1.5,
		ClientWindowS: 60, Seed: sim.MaxSeed, SeriesStepS: 2,
		SaleRampS: 10, SaleWaves: 2, SaleEveryS: 60,
		LossWorkers: 3, LossStartS: 50, LossS: 30, SlowFactor: 2.5, SlowStartS: 40, SlowS: 20, HeapRequests: 700,
		LimitQueue: sim.LimitSkip, BBRSettings: sim.BBRSettings{BBRRule: sim.BBRGoZero},
	}
	probeDeclared(&c)
	require.NoError(t, c.Validate())
	// The tables (rules 2b, 3b) replace the rates and the shapes set
	// above, so they go round in a Config of their own.
	tc := sim.DefaultConfig()
	tc.Service, tc.ServiceHistogram = sim.HistogramService, "le,count\n0.05,40\n0.1,90\n+Inf,100\n"
	tc.Arrivals, tc.ArrivalsScale, tc.ArrivalsShiftS, tc.SaleThresholdRPS = "0:60,100:160,160:60", 1.5, -10, 100
	tc.Hops = "payments: workers=4 service_ms=50 timeout_ms=1000 proxy=envoy\nbank: workers=2 service_ms=20 policy=bounded queue=10 timeout_ms=500"
	require.NoError(t, tc.Validate())
	tables := []string{"ServiceHistogram", "Arrivals", "ArrivalsScale", "ArrivalsShiftS", "SaleThresholdRPS", "Hops"}
	d := sim.DefaultConfig()
	for _, f := range fields {
		in := c
		if slices.Contains(tables, f.Name) {
			in = tc
		}
		assert.NotEqual(t, reflect.ValueOf(d).FieldByIndex(f.Index).Interface(), reflect.ValueOf(in).FieldByIndex(f.Index).Interface(),
			"the round trip sets %s to a value of its own", f.Name)
	}
	for _, in := range []sim.Config{c, tc} {
		got, errs := ConfigFromStrings(sim.Samples()[1].Config, ConfigStrings(in), 1)
		assert.Empty(t, errs)
		assert.Equal(t, in, got)
	}
}

// probeDeclared sets every policy's own settings (sim.Policy.Declares) in
// c to a value of their own that fits with the others' defaults: a whole
// one past its default, a number halfway from its default to its most.
func probeDeclared(c *sim.Config) {
	for _, p := range sim.Policies {
		for _, s := range p.Declares() {
			def, err := strconv.ParseFloat(s.Zero, 64) // what 0 stands for
			if err != nil {
				panic(s.Key + ": its 0 stands for no number: " + s.Zero)
			}
			if s.Kind == sim.Whole {
				s.Of(c).SetInt(int64(def) + 1)
			} else {
				s.Of(c).SetFloat((def + s.Max) / 2)
			}
		}
	}
}

func TestViewJSON(t *testing.T) {
	tests := []struct {
		reason string
		in     string
		fields []string // the fields named, in order; nil for a view
		msg    string   // a part of the first message
		check  func(t *testing.T, v report.View)
	}{
		{reason: "an empty object is the default config", in: `{}`,
			check: func(t *testing.T, v report.View) {
				assert.Equal(t, sim.DefaultConfig(), v.Config)
				assert.Len(t, v.Rows, len(sim.Policies))
				assert.Equal(t, 50, v.QueueBound)
				assert.NotEmpty(t, v.Chart.Bars)
				assert.NotEmpty(t, v.Advice)
			}},
		{reason: "missing keys keep their defaults", in: `{"policy":"bounded","queue":50}`,
			check: func(t *testing.T, v report.View) {
				want := sim.DefaultConfig()
				want.Policy, want.Queue = sim.Bounded, 50
				assert.Equal(t, want, v.Config)
				assert.Equal(t, sim.Bounded, v.Chosen.Config.Policy)
			}},
		{reason: "numbers may come as strings, as forms and URLs give them", in: `{"workers":"13","service_ms":" 80 ","policy":"LIFO","seed":"7"}`,
			check: func(t *testing.T, v report.View) {
				assert.Equal(t, 13, v.Config.Workers)
				assert.Equal(t, sim.LIFO, v.Config.Policy)
				assert.Equal(t, uint64(7), v.Config.Seed)
			}},
		{reason: "a whole number written as a float is accepted", in: `{"workers":1e1}`,
			check: func(t *testing.T, v report.View) { assert.Equal(t, 10, v.Config.Workers) }},
		{reason: "null keeps the default", in: `{"workers":null}`,
			check: func(t *testing.T, v report.View) { assert.Equal(t, 8, v.Config.Workers) }},
		{reason: "Validate's error names the field", in: `{"workers":0}`, fields: []string{"workers"}, msg: "0 is out of range"},
		{reason: "every bad field is named, in field order", in: `{"timeout_ms":0,"workers":-1,"order_share":2}`,
			fields: []string{"workers", "timeout_ms", "order_share"}},
		{reason: "text that is not a number names its field and keeps going", in: `{"workers":"abc","retries":-1}`,
			fields: []string{"workers", "retries"}, msg: `"abc" is not a whole number`},
		{reason: "a fraction of a worker is not a whole number", in: `{"workers":2.5}`, fields: []string{"workers"}, msg: "not a whole number"},
		{reason: "an empty field asks for a number", in: `{"service_ms":""}`, fields: []string{"service_ms"}, msg: "is empty"},
		{reason: "an unknown policy is named", in: `{"policy":"random"}`, fields: []string{"policy"}, msg: "use one of fifo"},
		{reason: "an unknown key is rejected with a field error", in: `{"wrokers":9}`, fields: []string{"wrokers"}, msg: "is not a setting"},
		{reason: "unknown keys are sorted, and Validate's errors follow", in: `{"zz":1,"aa":1,"workers":0}`, fields: []string{"aa", "zz", "workers"}},
		{reason: "a value that is neither number nor string is named", in: `{"workers":[8]}`, fields: []string{"workers"}, msg: "not a number or a string"},
		{reason: "NaN typed into a form is not a number", in: `{"service_ms":"NaN"}`, fields: []string{"service_ms"}, msg: "not a number"},
		{reason: "a seed above 2^53-1 is Validate's", in: `{"seed":"9007199254740992"}`, fields: []string{"seed"}, msg: "too large"},
		{reason: "a negative seed is out of range", in: `{"seed":-1}`, fields: []string{"seed"}, msg: "out of range"},
		{reason: "a huge worker count is clamped, not wrapped, and Validate names it", in: `{"workers":1e300}`, fields: []string{"workers"}, msg: "out of range"},
		{reason: "the page budget names the sale rate when it is the biggest contributor", in: `{"sale_rps":100000}`,
			fields: []string{"sale_rps"}, msg: "command line"},
		{reason: "the page budget names the duration when a long run is the cause", in: `{"duration_s":3600,"normal_rps":100}`,
			fields: []string{"duration_s"}, msg: "over the page's budget"},
		{reason: "a run longer than the page draws is refused, however few its attempts", in: `{"duration_s":86400,"normal_rps":1}`,
			fields: []string{"duration_s"}, msg: "longer than the page draws, at most 3,600 s (360 windows of 10 s)"},
		{reason: "the page's longest run points to the command line", in: `{"duration_s":"3600.5"}`,
			fields: []string{"duration_s"}, msg: "shedsim --duration-s"},
		{reason: "a run of the page's longest length is drawn", in: `{"duration_s":3600}`,
			check: func(t *testing.T, v report.View) {
				assert.Equal(t, float64(PageMaxDurationS), v.Config.DurationS)
				assert.Len(t, v.Chosen.Windows, PageMaxDurationS/10)
			}},
		{reason: "the page budget names the normal rate when it is the cause", in: `{"normal_rps":5000}`,
			fields: []string{"normal_rps"}, msg: "shedsim --normal-rps"},
		{reason: "the page budget names retries when they are the cause", in: `{"retries":100,"sale_rps":300}`,
			fields: []string{"retries"}, msg: "lower retries"},
	}
	for _, tt := range tests {
		t.Run(tt.reason, func(t *testing.T) {
			a := decode(t, viewJSON(tt.in))
			require.Nil(t, a.Error, "unexpected error: %v", a.Error)
			if tt.fields == nil {
				require.Empty(t, a.Errors, tt.reason)
				require.NotNil(t, a.View, tt.reason)
				tt.check(t, *a.View)
				return
			}
			assert.Nil(t, a.View, tt.reason)
			assert.Equal(t, tt.fields, fields(a.Errors), tt.reason)
			if tt.msg != "" && len(a.Errors) > 0 {
				assert.Contains(t, a.Errors[0].Msg, tt.msg, tt.reason)
			}
			for _, e := range a.Errors {
				assert.NotEmpty(t, e.Msg, "every error says what to do")
				assert.False(t, strings.HasPrefix(e.Msg, e.Field+":"), "the message does not repeat its field")
			}
		})
	}
}

func TestMalformedInput(t *testing.T) {
	tests := []struct {
		reason string
		call   func(string) string
		in     string
	}{
		{"broken JSON is an error, not a panic", viewJSON, `{"workers":`},
		{"an array is not a config", viewJSON, `[1,2]`},
		{"null is not a config", viewJSON, `null`},
		{"two objects are not one", runJSON, `{} {}`},
		{"the planner wants an object too", planJSON, `"rate"`},
	}
	for _, tt := range tests {
		t.Run(tt.reason, func(t *testing.T) {
			a := decode(t, tt.call(tt.in))
			require.NotNil(t, a.Error, tt.reason)
			assert.Contains(t, *a.Error, "JSON", tt.reason)
		})
	}
}

func TestRunJSONMatchesNative(t *testing.T) {
	tests := []struct {
		reason string
		in     string
		config func() sim.Config
	}{
		{"the default run", `{}`, sim.DefaultConfig},
		{"a bounded queue with retries", `{"policy":"bounded","retries":3}`, func() sim.Config {
			c := sim.DefaultConfig()
			c.Policy, c.Retries = sim.Bounded, 3
			return c
		}},
		{"the queue timeout, another seed, string values", `{"policy":"codel","seed":"42","sale_rps":"200"}`, func() sim.Config {
			c := sim.DefaultConfig()
			c.Policy, c.Seed, c.SaleRPS = sim.CoDel, 42, 200
			return c
		}},
	}
	for _, tt := range tests {
		t.Run(tt.reason, func(t *testing.T) {
			r, err := sim.Run(tt.config())
			require.NoError(t, err)
			want, err := json.Marshal(r)
			require.NoError(t, err)
			assert.Equal(t, string(want), runJSON(tt.in), "runJSON must give json.Marshal(sim.Run(c)) byte for byte")
		})
	}

	a := decode(t, runJSON(`{"retries":101}`))
	assert.Equal(t, []string{"retries"}, fields(a.Errors), "an invalid config is a field error")
	a = decode(t, runJSON(`{"normal_rps":20000}`))
	assert.Equal(t, []string{"normal_rps"}, fields(a.Errors), "one run is held to the page budget too")
	a = decode(t, runJSON(`{"duration_s":86400,"normal_rps":1}`))
	assert.Equal(t, []string{"duration_s"}, fields(a.Errors), "and to the page's longest run")
}

func TestPanicRecovery(t *testing.T) {
	tests := []struct {
		reason string
		call   func() string
	}{
		{"a panic in the body becomes an error answer", func() (out string) {
			defer guard(&out)
			var v []int
			_ = v[3]
			return "unreachable"
		}},
		{"a value JSON cannot hold panics in mustJSON and is caught", func() (out string) {
			defer guard(&out)
			return MustJSON(math.NaN())
		}},
	}
	for _, tt := range tests {
		t.Run(tt.reason, func(t *testing.T) {
			var got string
			require.NotPanics(t, func() { got = tt.call() }, tt.reason)
			a := decode(t, got)
			require.NotNil(t, a.Error, tt.reason)
			assert.Contains(t, *a.Error, "internal error", tt.reason)
		})
	}
}

func TestLab(t *testing.T) {
	var list struct {
		Lab []LabEntry `json:"lab"`
	}
	require.NoError(t, json.Unmarshal([]byte(LabListJSON()), &list))
	require.Len(t, list.Lab, 162, "the lab has 162 combinations")
	for i, e := range list.Lab {
		c := e.Config
		assert.Equal(t, i, LabIndex(c.Policy, c.Retries, c.SaleRPS, c.TimeoutMS), "LabIndex inverts sim.Lab at %d", i)
	}
	assert.Equal(t, -1, LabIndex(sim.FIFO, 2, 150, 2000), "2 retries is not in the lab")

	tests := []struct {
		reason string
		index  int
		errs   []string
		check  func(t *testing.T, l LabRun)
	}{
		{reason: "fifo with one retry at 150/s is stuck", index: LabIndex(sim.FIFO, 1, 150, 2000),
			check: func(t *testing.T, l LabRun) {
				assert.Equal(t, sim.Stuck, l.Result.Recovery)
				assert.Contains(t, l.Recovered, "stuck")
				assert.Equal(t, "This run", l.ThisRun.Label)
				assert.NotEmpty(t, l.Chart.Bars)
			}},
		{reason: "fifo at 200/s with no retries is a backlog", index: LabIndex(sim.FIFO, 0, 200, 2000),
			check: func(t *testing.T, l LabRun) { assert.Equal(t, sim.Backlog, l.Result.Recovery) }},
		{reason: "an index past the end is a field error", index: 162, errs: []string{"index"}},
		{reason: "a negative index is a field error", index: -1, errs: []string{"index"}},
	}
	for _, tt := range tests {
		t.Run(tt.reason, func(t *testing.T) {
			got := labJSON(tt.index)
			if tt.errs != nil {
				assert.Equal(t, tt.errs, fields(decode(t, got).Errors), tt.reason)
				return
			}
			var l LabRun
			require.NoError(t, json.Unmarshal([]byte(got), &l))
			assert.Equal(t, tt.index, l.Index)
			tt.check(t, l)
		})
	}
}

func TestPlanJSON(t *testing.T) {
	type planOut struct {
		Plan struct {
			Servers  int `json:"servers"`
			OneFewer *struct {
				Servers int     `json:"servers"`
				Wait    float64 `json:"wait"`
			} `json:"one_fewer"`
			Answer struct {
				Wait float64 `json:"wait"`
			} `json:"answer"`
		} `json:"plan"`
		Chart  PlanChart  `json:"chart"`
		Errors []FieldMsg `json:"errors"`
	}
	tests := []struct {
		reason  string
		in      string
		servers int
		fewer   string // PlanPercent of one fewer
		answer  string
		errs    []string
	}{
		{reason: "the post's sale: 19 servers, 18 would leave 7.56% waiting", in: `{"rate_rps":150,"service_ms":80,"target":0.05}`,
			servers: 19, fewer: "7.56%", answer: "4.35%"},
		{reason: "the target may be typed as a percentage", in: `{"rate_rps":"150","service_ms":"80","target":"5%"}`,
			servers: 19, fewer: "7.56%", answer: "4.35%"},
		{reason: "the planner's own example is the default: 120/s at 45 ms, 11 servers", in: `{}`,
			servers: 11, fewer: "5.66%", answer: "2.52%"},
		{reason: "a rate of zero is named", in: `{"rate_rps":0}`, errs: []string{"rate_rps"}},
		{reason: "a target of 150% is named", in: `{"target":"150%"}`, errs: []string{"target"}},
		{reason: "text is named, and the other field's range too", in: `{"service_ms":"x","limit_ms":-1}`, errs: []string{"service_ms", "limit_ms"}},
		{reason: "an unknown key is named", in: `{"servers":3}`, errs: []string{"servers"}},
	}
	for _, tt := range tests {
		t.Run(tt.reason, func(t *testing.T) {
			var p planOut
			require.NoError(t, json.Unmarshal([]byte(planJSON(tt.in)), &p))
			if tt.errs != nil {
				assert.Equal(t, tt.errs, fields(p.Errors), tt.reason)
				return
			}
			require.Empty(t, p.Errors, tt.reason)
			assert.Equal(t, tt.servers, p.Plan.Servers, tt.reason)
			if tt.fewer != "" {
				require.NotNil(t, p.Plan.OneFewer)
				assert.Equal(t, tt.fewer, PlanPercent(p.Plan.OneFewer.Wait), tt.reason)
				assert.Equal(t, tt.answer, PlanPercent(p.Plan.Answer.Wait), tt.reason)
			}
			assert.NotEmpty(t, p.Chart.Bars, "the chart has a column per server count")
			assert.Contains(t, p.Chart.Summary, "the answer", "the chart has a text alternative")
		})
	}
}

func TestPlanPercent(t *testing.T) {
	tests := []struct {
		reason string
		in     float64
		want   string
	}{
		{"two decimals, as the post quotes", 0.07556, "7.56%"},
		{"zero is plain", 0, "0%"},
		{"tiny shares keep two significant digits, as decimals", 1.234e-7, "0.000012%"},
		{"just under a hundredth of a percent", 0.00009, "0.0090%"},
		{"certainty", 1, "100.00%"},
	}
	for _, tt := range tests {
		assert.Equal(t, tt.want, PlanPercent(tt.in), tt.reason)
	}
}

func TestSmallAnswers(t *testing.T) {
	var d struct {
		Config     sim.Config `json:"config"`
		PageBudget int        `json:"page_budget"`
		Keys       []string   `json:"keys"`
	}
	require.NoError(t, json.Unmarshal([]byte(DefaultsJSON()), &d))
	assert.Equal(t, sim.DefaultConfig(), d.Config, "defaults carry the default config")
	assert.Equal(t, PageBudget, d.PageBudget)
	assert.Equal(t, ConfigKeys(), d.Keys)

	var s struct {
		Samples []sim.Sample `json:"samples"`
	}
	require.NoError(t, json.Unmarshal([]byte(SamplesJSON()), &s))
	assert.Equal(t, sim.Samples(), s.Samples, "every sample, in order")
}

func TestViewCSVAndQueueHint(t *testing.T) {
	c := sim.DefaultConfig()
	v, err := report.Build(c)
	require.NoError(t, err)
	csv := ViewCSV(v)
	lines := strings.Split(csv, "\n")
	assert.True(t, strings.HasPrefix(lines[0], "policy,title,answered"), "the comparison comes first")
	assert.True(t, strings.HasPrefix(lines[1], "fifo,Unbounded queue,"), "one row per policy, in order")
	n := len(sim.Policies)
	assert.Equal(t, "", lines[n+1], "a blank line separates the windows")
	assert.True(t, strings.HasPrefix(lines[n+2], "window_start_s,"))
	assert.Equal(t, n+2+1+30+1, len(lines), "30 windows of 10 s, then the final newline")
	assert.Contains(t, csv, "codel,Queue timeout (CoDel),")
	assert.Contains(t, csv, `"Newest first (adaptive LIFO)"`[1:len(`"Newest first (adaptive LIFO)"`)-1])

	assert.Equal(t, "automatic: 50, 0.5 s of work", QueueHint(v), "queue 0 is automatic")
	c.Queue = 1024
	v, err = report.Build(c)
	require.NoError(t, err)
	assert.Equal(t, "1,024 requests, 10.2 s of work", QueueHint(v))

	// A share of nobody is an empty cell, as "none" is elsewhere: a sale
	// with no people, and windows with nobody settled.
	c = sim.DefaultConfig()
	c.SaleRPS, c.NormalRPS = 0, 0
	v, err = report.Build(c)
	require.NoError(t, err)
	lines = strings.Split(ViewCSV(v), "\n")
	assert.Equal(t, "fifo,Unbounded queue,,,,,,,0,,unmeasured,", lines[1], "nobody arrived: no shares, no waits, no return to normal")
	assert.Equal(t, "0,false,0,0,0,0,0,,0", lines[len(sim.Policies)+3], "a window with nobody has no answered share")
}

func TestPageBudgetCoversTheLabAndSamples(t *testing.T) {
	for _, s := range sim.Samples() {
		assert.Nil(t, budget(s.Config, ViewRuns), "sample %s must fit the page", s.Key)
	}
	for i, c := range sim.Lab() {
		assert.Nil(t, budget(c, 1), "lab run %d must fit the page", i)
	}
}

func TestBuildComparedThenAdviseIsBuild(t *testing.T) {
	for _, key := range []string{"sale", "bounded", "retries", "retries-budget", "refusal-cost", "quiet"} {
		s, ok := sim.SampleByKey(key)
		require.True(t, ok, key)
		want, err := report.Build(s.Config)
		require.NoError(t, err, key)
		got, compared, err := report.BuildCompared(s.Config)
		require.NoError(t, err, key)
		assert.Nil(t, got.Advice, "sample %s: the advice comes later", key)
		got.Advice, err = report.Advise(s.Config, compared)
		require.NoError(t, err, key)
		assert.Equal(t, want, got, "sample %s: the page's two steps must give report.Build's view", key)
	}
}

func TestClientsJSON(t *testing.T) {
	type clientsOut struct {
		View   *report.ClientView `json:"view"`
		Errors []FieldMsg         `json:"errors"`
		Error  *string            `json:"error"`
	}
	byClient := func(v *report.ClientView) map[sim.Client]report.ClientRow {
		out := map[sim.Client]report.ClientRow{}
		for _, r := range v.Rows {
			out[r.Client] = r
		}
		return out
	}
	tests := []struct {
		reason string
		in     string
		fields []string // the fields named, in order; nil for a view
		msg    string   // a part of the first message, or of the error
		check  func(t *testing.T, v *report.ClientView)
	}{
		{reason: "an empty object compares every client for the default config", in: `{}`,
			check: func(t *testing.T, v *report.ClientView) {
				assert.Equal(t, sim.DefaultConfig(), v.Config)
				require.Len(t, v.Rows, len(sim.Clients))
				for i, r := range v.Rows {
					assert.Equal(t, sim.Clients[i], r.Client, "rows come in the order of sim.Clients")
					assert.Equal(t, sim.Clients[i].Title(), r.Title)
					assert.NotEmpty(t, r.Fluid)
				}
			}},
		{reason: "the retries sample is the metastable case: stuck with the fixed client, back under the budget",
			in: `{"retries":3}`,
			check: func(t *testing.T, v *report.ClientView) {
				rows := byClient(v)
				assert.Equal(t, sim.Stuck, rows[sim.Fixed].Recovery)
				assert.Nil(t, rows[sim.Fixed].BackToNormalS, "the fixed client never gets back")
				assert.NotNil(t, rows[sim.Budget].BackToNormalS, "the budget gets back")
				assert.Less(t, rows[sim.Budget].AttemptsPerPerson, rows[sim.Fixed].AttemptsPerPerson)
				assert.Less(t, rows[sim.Budget].ExtraLoad, rows[sim.Fixed].ExtraLoad)
			}},
		{reason: "clientsJSON is report.BuildClients", in: `{"retries":3,"policy":"bounded"}`,
			check: func(t *testing.T, v *report.ClientView) {
				c := sim.DefaultConfig()
				c.Retries, c.Policy = 3, sim.Bounded
				want, err := report.BuildClients(c)
				require.NoError(t, err)
				assert.Equal(t, want, *v)
			}},
		{reason: "a client, which changes nothing where every client runs, is refused, as --clients --client is (issue 27, item 5)",
			in: `{"retries":3,"client":"budget","policy":"bounded"}`, fields: []string{"client"}, msg: "counts for nothing where every client strategy runs: leave out client"},
		{reason: "so is the share of orders under a policy that does not put orders first (issue 27, item 5)",
			in: `{"order_share":0.3}`, fields: []string{"order_share"}, msg: "needs policy priority (the policy is fifo)"},
		{reason: "under priority for orders it counts", in: `{"order_share":0.3,"policy":"priority"}`,
			check: func(t *testing.T, v *report.ClientView) { assert.Equal(t, 0.3, v.Config.OrderShare) }},
		{reason: "Validate's errors name the field", in: `{"retries":-1}`, fields: []string{"retries"}},
		{reason: "an unknown client is named", in: `{"client":"polite"}`, fields: []string{"client"}, msg: "use one of fixed"},
		{reason: "the page budget counts one run per client", in: `{"sale_rps":100000}`, fields: []string{"sale_rps"}, msg: "comparison of 6 runs"},
		{reason: "the page's longest run holds for the clients too", in: `{"duration_s":86400,"normal_rps":1}`, fields: []string{"duration_s"}, msg: "at most 3,600 s"},
		{reason: "broken JSON is an error", in: `{"retries":`, msg: "JSON"},
	}
	for _, tt := range tests {
		t.Run(tt.reason, func(t *testing.T) {
			var a clientsOut
			require.NoError(t, json.Unmarshal([]byte(clientsJSON(tt.in)), &a))
			switch {
			case tt.check != nil:
				require.Nil(t, a.Error)
				require.Empty(t, a.Errors)
				require.NotNil(t, a.View)
				tt.check(t, a.View)
			case tt.fields != nil:
				assert.Equal(t, tt.fields, fields(a.Errors), tt.reason)
				if tt.msg != "" && len(a.Errors) > 0 {
					assert.Contains(t, a.Errors[0].Msg, tt.msg, tt.reason)
				}
			default:
				require.NotNil(t, a.Error, tt.reason)
				assert.Contains(t, *a.Error, tt.msg, tt.reason)
			}
		})
	}
}

func TestClientRunReusesTheChosenRun(t *testing.T) {
	s, _ := sim.SampleByKey("retries-throttle")
	c := s.Config
	chosen, err := sim.Run(c)
	require.NoError(t, err)
	want, err := report.BuildClients(c)
	require.NoError(t, err)
	got := report.ClientView{Config: c}
	for _, cl := range sim.Clients {
		r, err := ClientRun(c, chosen, cl)
		require.NoError(t, err)
		got.Rows = append(got.Rows, report.ClientRowOf(r))
	}
	assert.Equal(t, want, got, "the page's rows, one run at a time and the chosen run reused, are report.BuildClients'")
}

// TestSharesTakePercentages: a share of the Config (the orders', the
// ratio client's) may be typed as the planner's target may, "20%".
func TestSharesTakePercentages(t *testing.T) {
	vals := ConfigStrings(sim.DefaultConfig())
	vals["order_share"], vals["ratio_max"] = "35%", " 5 % "
	c, errs := ConfigFromStrings(sim.DefaultConfig(), vals, 1)
	require.Empty(t, errs)
	assert.Equal(t, 0.35, c.OrderShare)
	assert.Equal(t, 0.05, c.RatioMax)

	vals["order_share"] = "120%"
	_, errs = ConfigFromStrings(sim.DefaultConfig(), vals, 1)
	require.Len(t, errs, 1)
	assert.Equal(t, "order_share", errs[0].Field, "a share over 100%% is out of range: %v", errs)

	vals = ConfigStrings(sim.DefaultConfig())
	vals["workers"] = "8%"
	_, errs = ConfigFromStrings(sim.DefaultConfig(), vals, 1)
	require.Len(t, errs, 1)
	assert.Equal(t, "workers", errs[0].Field, "a percentage is for shares only")
}

func TestCanonicalChoice(t *testing.T) {
	assert.Equal(t, "bounded", CanonicalChoice("policy", " Bounded "), "the engine reads any case: so does the menu")
	assert.Equal(t, "retry-after", CanonicalChoice("client", "Retry-After"))
	assert.Equal(t, "nope", CanonicalChoice("policy", "nope"), "what is no policy stays as typed, to be marked")
	assert.Equal(t, "skip", CanonicalChoice("limit_queue", "SKIP"), "every menu's choices come from its setting")
	assert.Equal(t, "Bounded", CanonicalChoice("workers", "Bounded"), "other fields are left alone")
}

// TestPercentMessages: a share typed as a percentage is told off in
// percentages.
func TestPercentMessages(t *testing.T) {
	vals := ConfigStrings(sim.DefaultConfig())
	vals["ratio_max"] = "95%"
	_, errs := ConfigFromStrings(sim.DefaultConfig(), vals, 1)
	require.Len(t, errs, 1)
	assert.Equal(t, FieldMsg{"ratio_max", `"95%" is too large: use a share from 0% to 90% (0 to 0.9)`}, errs[0])

	vals["ratio_max"] = "0.95"
	_, errs = ConfigFromStrings(sim.DefaultConfig(), vals, 1)
	require.Len(t, errs, 1)
	assert.Equal(t, "0.95 is too large: use a number from 0 to 0.9", errs[0].Msg, "a fraction is told off as a fraction")
}

// TestPlanDefaults: the planner's form starts from plan.DefaultInput, its
// own example, as the post gives it.
func TestPlanDefaults(t *testing.T) {
	assert.Equal(t, map[string]string{"rate_rps": "120", "service_ms": "45", "target": "5%", "limit_ms": "0", "patience_ms": "0", "abandon_target": "0"}, PlanDefaults)
	assert.Equal(t, []string{"rate_rps", "service_ms", "target", "limit_ms", "patience_ms", "abandon_target"}, PlanKeys)
	in, errs := PlanFromStrings(PlanDefaults)
	require.Empty(t, errs)
	assert.Equal(t, plan.DefaultInput(), in)
}

// TestJSAPIRefusesWhatItCannotRead calls the JS API as a page script
// might, with what JSON.stringify would have turned into a plausible wrong
// run or an internal error (issue 14, items 4 to 8): each answer names the
// key and what is wrong, quotes no more than a prefix of the input, and
// stays small whatever the input's size. (The time such input takes is in
// BenchmarkHostileInput: tests are not timed.)
func TestJSAPIRefusesWhatItCannotRead(t *testing.T) {
	circular := JsObject{"workers": 8.0}
	circular["self"] = circular
	many, tooMany := JsObject{}, JsObject{}
	var manyJSON strings.Builder
	manyJSON.WriteString("{")
	for i := range 80_000 {
		k := fmt.Sprintf("unknown_key_%05d", i)
		tooMany[k] = 1.0
		if i < maxKeys {
			many[k] = 1.0
		}
		if i >= 20_000 {
			continue
		}
		if i > 0 {
			manyJSON.WriteString(",")
		}
		manyJSON.WriteString(`"` + k + `":1`)
	}
	manyJSON.WriteString("}")
	view := func(v any) string { return ViewOf(ReadJS(FakeJS{v})) }
	run := func(v any) string { return RunOf(ReadJS(FakeJS{v})) }
	cases := []struct {
		reason string
		answer func() string
		field  string // the field of the first error, or "" for {"error"}
		want   string // a part of its message
		most   int    // the most bytes the answer may take
	}{
		{"NaN is refused, not the default", func() string { return run(JsObject{"sale_rps": math.NaN()}) },
			"sale_rps", "NaN is not a number: use a number from 0 to 1,000,000 per second", 300},
		{"Infinity is refused", func() string { return run(JsObject{"timeout_ms": math.Inf(1)}) },
			"timeout_ms", "is not a finite number: use a number above 0", 300},
		{"NaN workers", func() string { return view(JsObject{"workers": math.NaN()}) }, "workers", "NaN is not a whole number", 300},
		{"a huge whole number is named as given", func() string { return run(JsObject{"workers": 1e308}) },
			"workers", "1e+308 is out of range: use a whole number from 1 to 100,000", 300},
		{"and in JSON as typed", func() string { return runJSON(`{"workers": 1e308}`) }, "workers", "1e308 is out of range", 300},
		{"a circular object is read, not stringified", func() string { return run(circular) },
			"self", "is not a setting of the simulator", 1000},
		{"a circular value is named", func() string { return run(JsObject{"workers": circular}) },
			"workers", "an object is not a number or a string", 300},
		{"a getter that throws", func() string { return run(JsObject{"workers": jsThrows("boom")}) },
			"workers", "reading it threw boom", 300},
		{"a function value", func() string { return run(JsObject{"workers": jsFunc{}}) }, "workers", "a function is not a number or a string", 300},
		{"true is not a config", func() string { return view(true) }, "", "the input is a boolean: give an object", 300},
		{"a function is not a config", func() string { return view(jsFunc{}) }, "", "the input is a function", 300},
		{"an array is not a config", func() string { return view([]any{1.0}) }, "", "the input is an array", 300},
		{"a number is not a config", func() string { return view(8.0) }, "", "the input is a number", 300},
		{"1,000 unknown keys are named once, sorted, and counted", func() string { return view(many) },
			"unknown_key_00000", "is not a setting of the simulator: shedsim.defaults().keys lists every setting, such as policy, workers", 2500},
		{"80,000 keys are refused by their count, none read (issue 27, item 1: they took 31 s)", func() string { return view(tooMany) },
			"", "the input has 80,000 keys, more than any configuration needs: give at most 1000", 300},
		{"and as JSON", func() string { return viewJSON(manyJSON.String()) }, "unknown_key_00000", "shedsim.defaults().keys lists every setting", 2500},
		{"a 300 MB value is quoted by its first characters", func() string { return run(JsObject{"policy": JsLong(300_000_000)}) },
			"policy", `"xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"… (300,000,000 characters) is too long to be a setting`, 400},
		{"a 300 MB number", func() string { return run(JsObject{"workers": JsLong(300_000_000)}) }, "workers", "(300,000,000 characters) is too long", 400},
		{"a 300 MB key", func() string { return run(JsObject{strings.Repeat("k", 1000): 1.0}) }, `"kkkkkkkkkk`, "is not a setting", 1000},
		{"300 MB of JSON is refused by its length", func() string { return ViewOf(ReadJS(FakeJS{JsLong(300_000_000)})) },
			"", "the input is 300,000,000 characters of JSON, more than any configuration needs", 300},
		{"a long bad value in JSON is not echoed", func() string { return runJSON(`{"policy":"` + strings.Repeat("y", 100_000) + `"}`) },
			"policy", "(100,000 characters) is too long", 400},
		{"a BigInt is refused, named by its key (issue 27, item 1: 10n was read as 10)", func() string { return run(JsObject{"workers": jsBigInt("10")}) },
			"workers", "a BigInt is not a number or a string: give a Number, such as 8 rather than 8n", 300},
		{"a huge BigInt too", func() string { return run(JsObject{"workers": jsBigInt("1000000000000000000000")}) },
			"workers", "a BigInt is not a number or a string", 300},
		{"a client setting that counts for nothing", func() string { return run(JsObject{"retries": 3.0, "budget_tokens": 1.0}) },
			"budget_tokens", "needs client budget (the client is fixed)", 300},
		{"a queue bound for a run without one", func() string { return run(JsObject{"queue": 10.0}) },
			"queue", "needs policy bounded or policy priority", 300},
		{"the planner's unknown keys too", func() string { return PlanOf(ReadJS(FakeJS{many})) }, "unknown_key_00000", "is not a setting of the planner", 2500},
	}
	for _, tc := range cases {
		t.Run(tc.reason, func(t *testing.T) {
			var before, after runtime.MemStats
			runtime.ReadMemStats(&before)
			out := tc.answer()
			runtime.ReadMemStats(&after)
			a := decode(t, out)
			if tc.field == "" {
				require.NotNil(t, a.Error, "%s: %s", tc.reason, out)
				assert.Contains(t, *a.Error, tc.want, tc.reason)
				assert.NotContains(t, *a.Error, "internal error", tc.reason)
			} else {
				require.NotEmpty(t, a.Errors, "%s: %s", tc.reason, out)
				assert.True(t, strings.HasPrefix(a.Errors[0].Field, tc.field), "%s: the first error is %q's: %s", tc.reason, tc.field, out)
				assert.Contains(t, a.Errors[0].Msg, tc.want, tc.reason)
			}
			assert.LessOrEqual(t, len(out), tc.most, "%s: the answer is small: %s", tc.reason, Prefix(out, 500))
			assert.Less(t, after.TotalAlloc-before.TotalAlloc, uint64(64<<20), "%s: reading it allocates little, whatever its size", tc.reason)
		})
	}
	// The unknown keys: the first ten by name, in order, then a count.
	a := decode(t, view(many))
	require.Len(t, a.Errors, maxUnknown+1)
	assert.Equal(t, "unknown_key_00009", a.Errors[9].Field)
	assert.Equal(t, FieldMsg{"", "and 990 more keys that are not settings of the simulator"}, a.Errors[10])

	// Undefined and null keep the default.
	var r sim.Result
	require.NoError(t, json.Unmarshal([]byte(run(JsObject{"workers": 13.0, "seed": nil, "retries": jsNull})), &r))
	assert.Equal(t, 13, r.Config.Workers)
	assert.Equal(t, sim.DefaultConfig().Seed, r.Config.Seed)
	// Nothing, undefined and null are every default.
	assert.Equal(t, runJSON(`{}`), run(nil))
	assert.Equal(t, runJSON(`{}`), run(jsNull))
	// A client setting counts where its client runs.
	assert.Nil(t, decode(t, ClientsOf(ReadJS(FakeJS{JsObject{"retries": 3.0, "budget_tokens": 1.0}}))).Errors, "the comparison of clients runs the budget")
	assert.Nil(t, decode(t, view(JsObject{"queue": 10.0})).Errors, "the view runs every policy")
}

// TestLabIndexIsAWholeNumber: shedsim.lab reads its index as a whole
// number, or says why not (issue 14, item 5: lab(NaN) was entry 0, 1.5
// entry 1, and "3" was "-1 is out of range").
func TestLabIndexIsAWholeNumber(t *testing.T) {
	cases := []struct {
		reason string
		arg    any
		index  int    // the run answered, or -1
		want   string // part of the error
	}{
		{"a number", 3.0, 3, ""},
		{"a string of one", "3", 3, ""},
		{"NaN", math.NaN(), -1, "NaN is not a whole number"},
		{"a fraction", 1.5, -1, "1.5 is not a whole number"},
		{"too large", 1e308, -1, "1e+308 is out of range: use a whole number from 0 to 161"},
		{"out of range", 162.0, -1, "162 is out of range"},
		{"true", true, -1, "true is not a number or a string"},
		{"nothing", nil, -1, "is missing: give the index of a lab run"},
		{"an object", JsObject{}, -1, "an object is not a number or a string"},
	}
	for _, tc := range cases {
		out := LabOf(FakeJS{tc.arg})
		var l struct {
			Index  *int       `json:"index"`
			Errors []FieldMsg `json:"errors"`
		}
		require.NoError(t, json.Unmarshal([]byte(out), &l), tc.reason)
		if tc.index >= 0 {
			require.NotNil(t, l.Index, "%s: %s", tc.reason, Prefix(out, 300))
			assert.Equal(t, tc.index, *l.Index, tc.reason)
			continue
		}
		require.Len(t, l.Errors, 1, "%s: %s", tc.reason, Prefix(out, 300))
		assert.Equal(t, "index", l.Errors[0].Field, tc.reason)
		assert.Contains(t, l.Errors[0].Msg, tc.want, tc.reason)
	}
}

// TestGivenSettingsThatCountForNothing: an element's attributes and a
// link's keys are given one by one, so one that counts for nothing is
// named, as on the command line; the form, which holds every setting, is
// not held to that (issue 14, item 1).
func TestGivenSettingsThatCountForNothing(t *testing.T) {
	vals := map[string]string{"retries": "3", "budget_tokens": "1"}
	_, errs := ConfigFromGiven(sim.DefaultConfig(), vals, 1, sim.Scope{EveryPolicy: true})
	require.Len(t, errs, 1)
	assert.Equal(t, FieldMsg{"budget_tokens", "needs client budget (the client is fixed): add it, or leave out budget_tokens"}, errs[0])
	_, errs = ConfigFromStrings(sim.DefaultConfig(), vals, 1)
	assert.Empty(t, errs, "the form's values are every setting, counted or not")
	vals["client"] = "budget"
	_, errs = ConfigFromGiven(sim.DefaultConfig(), vals, 1, sim.Scope{EveryPolicy: true})
	assert.Empty(t, errs, "with its client it counts")

	assert.Equal(t, []FieldMsg{{"retry_jitter_ms", "needs retries above 0 (with none, no client retries): give retries, or leave out retry_jitter_ms"}},
		UnusedGiven(sim.DefaultConfig(), map[string]string{"retry_jitter_ms": "5", "sample": "sale"}, sim.Scope{EveryPolicy: true}))
	assert.Nil(t, UnusedGiven(sim.DefaultConfig(), map[string]string{"retry_jitter_ms": "x"}, sim.Scope{}), "a value the form reports itself")
	retries, ok := sim.SampleByKey("retries")
	require.True(t, ok)
	assert.Nil(t, UnusedGiven(retries.Config, map[string]string{"retry_jitter_ms": "5"}, sim.Scope{EveryPolicy: true}), "the sample's retries make it count")
}

// TestWholeConfigReadsBack: a whole Config, every setting in it, as a
// Result's config holds it, is a valid input: a setting at its default is
// not counted as given.
func TestWholeConfigReadsBack(t *testing.T) {
	for _, c := range []sim.Config{sim.DefaultConfig(), sim.Lab()[67], sim.Lab()[161]} {
		in, err := json.Marshal(c)
		require.NoError(t, err)
		out := runJSON(string(in))
		var r sim.Result
		require.NoError(t, json.Unmarshal([]byte(out), &r), Prefix(out, 300))
		assert.Equal(t, c, r.Config)
	}
	a := decode(t, runJSON(`{"policy":"bounded","codel_target_ms":5,"codel_interval_ms":7}`))
	require.Len(t, a.Errors, 1, "the default M is not given, a changed N is")
	assert.Equal(t, "codel_interval_ms", a.Errors[0].Field)
}

// TestUseInstead: an unknown key near a setting is told which it meant; a
// long list of settings is not written into every message.
func TestUseInstead(t *testing.T) {
	for _, tc := range []struct{ reason, key, want string }{
		{"dashes for underscores", "sale-rps", "did you mean sale_rps?"},
		{"a letter missing", "timout_ms", "did you mean timeout_ms?"},
		{"capitals", "Workers", "did you mean workers?"},
		{"nothing near", "colour", "shedsim.defaults().keys lists every setting, such as policy, workers, service_ms"},
	} {
		assert.Equal(t, tc.want, strings.SplitAfter(useInstead(tc.key, ConfigKeys()), "?")[0], tc.reason)
	}
	assert.Equal(t, "use one of a, b", useInstead("c", []string{"a", "b"}), "a short list is written out")
}
