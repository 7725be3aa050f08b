package sim

import (
	"encoding/json"
	"fmt"
	"os"
	"reflect"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestPolicySpecs is the conformance check every policy passes through:
// registering a policy (definePolicy) puts it in Policies, and this test
// fails on one whose description is incomplete or whose behaviour does
// not match it.
func TestPolicySpecs(t *testing.T) {
	require.Len(t, policySpecs, len(Policies), "policy values are dense from 0: no value left without a spec")
	require.NotEmpty(t, PostPolicies)
	assert.Equal(t, Policies[:len(PostPolicies)], PostPolicies, "the post's policies come first, in the post's order")
	model, err := os.ReadFile("MODEL.md")
	require.NoError(t, err)
	keys := map[string]Policy{}
	colours := map[string]Policy{}
	for _, p := range Policies {
		t.Run(p.String(), func(t *testing.T) {
			s := p.spec()
			checkPolicyWords(t, p, s)
			if q, dup := keys[s.key]; dup {
				t.Errorf("%s: key %q is %s's too", p, s.key, q)
			}
			keys[s.key] = p
			for _, c := range []string{s.light, s.dark} {
				if q, dup := colours[c]; dup {
					t.Errorf("%s: colour %s is %s's too: each curve needs a hue of its own", p, c, q)
				}
				colours[c] = p
			}
			rule := regexp.MustCompile(fmt.Sprintf(`(?m)^%d\. \*\*%s\*\*`, s.rule, regexp.QuoteMeta(s.key)))
			assert.Regexp(t, rule, string(model), "%s: MODEL.md states its rule as %d. **%s** ...", p, s.rule, s.key)
			checkPolicySettings(t, p)
			checkPolicyRuns(t, p)
			if !s.post {
				assert.NotEmpty(t, s.samples, "%s: a policy beyond the post's brings a sample of its own", p)
			}
			for _, sm := range s.samples {
				assert.Equal(t, p, sm.Config.Policy, "%s's sample %s runs it", p, sm.Key)
				assert.NoError(t, sm.Config.Validate(), "%s's sample %s", p, sm.Key)
			}
		})
	}
}

// checkPolicyWords checks s's words and colours: present, parsed back,
// and in the forms the page's styles take.
func checkPolicyWords(t assert.TestingT, p Policy, s *policySpec) {
	hex := regexp.MustCompile(`^#[0-9a-f]{6}$`)
	dash := regexp.MustCompile(`^([0-9]+( [0-9]+)*)?$`)
	assert.Regexp(t, `^[a-z][a-z0-9-]*$`, s.key, "%d: a key of lower-case letters, digits and dashes", int(p))
	assert.NotEmpty(t, s.title, "%s: a title", s.key)
	assert.NotEmpty(t, s.short, "%s: a short label", s.key)
	assert.LessOrEqual(t, len(s.short), len(s.title), "%s: the short label is no longer than the title", s.key)
	assert.NotEmpty(t, s.noun, "%s: a noun for sentences", s.key)
	assert.Regexp(t, hex, s.light, "%s: a light colour, #rrggbb", s.key)
	assert.Regexp(t, hex, s.dark, "%s: a dark colour, #rrggbb", s.key)
	assert.Regexp(t, dash, s.dash, "%s: a dash pattern, numbers apart", s.key)
	assert.Positive(t, s.rule, "%s: its rule in MODEL.md", s.key)
	if s.refusesEarly {
		assert.True(t, s.admit != admitAll || s.shed == shedOverLimit, "%s: a policy that refuses early refuses", s.key)
	}
	if q, err := ParsePolicy(strings.ToUpper(s.key)); assert.NoError(t, err, "%s parses", s.key) {
		assert.Equal(t, p, q, "%s parses back to itself", s.key)
	}
}

// TestPolicyWordsFailIncomplete shows checkPolicyWords failing a spec
// with a piece missing, as a new policy's author might leave one.
func TestPolicyWordsFailIncomplete(t *testing.T) {
	whole := *FIFO.spec()
	for _, tc := range []struct {
		reason string
		change func(*policySpec)
	}{
		{"no title", func(s *policySpec) { s.title = "" }},
		{"no short label", func(s *policySpec) { s.short = "" }},
		{"no noun", func(s *policySpec) { s.noun = "" }},
		{"no colour: the sweep would draw its curve with no stroke", func(s *policySpec) { s.light = "" }},
		{"a colour by name", func(s *policySpec) { s.dark = "red" }},
		{"a dash with commas", func(s *policySpec) { s.dash = "2,3" }},
		{"no rule", func(s *policySpec) { s.rule = 0 }},
		{"refuses early but never refuses", func(s *policySpec) { s.refusesEarly = true }},
	} {
		s := whole
		tc.change(&s)
		rec := &recorder{}
		checkPolicyWords(rec, FIFO, &s)
		assert.NotEmpty(t, rec.errs, tc.reason)
	}
	rec := &recorder{}
	checkPolicyWords(rec, FIFO, &whole)
	assert.Empty(t, rec.errs, "the unbounded queue's own spec passes")
}

// recorder is an assert.TestingT that keeps the failures it is told of.
type recorder struct{ errs []string }

func (r *recorder) Errorf(format string, args ...any) {
	r.errs = append(r.errs, fmt.Sprintf(format, args...))
}

// checkPolicySettings checks that each setting p owns is a Config key,
// changes p's run, changes nothing under a policy that does not own it,
// and that Unused says so, naming p. A run that shows what it does is
// p's first sample, or the same with half the workers and clients who
// give up after 300 ms, where requests wait past their clients (what
// the queue behind a limit does with them shows only there).
func checkPolicySettings(t *testing.T, p Policy) {
	first := DefaultConfig()
	first.Policy = p
	if s := p.spec().samples; len(s) > 0 {
		first = s[0].Config
	}
	tight := first
	tight.Workers, tight.TimeoutMS = max(1, first.Workers/2), 300
	for _, key := range p.Settings() {
		if _, ok := configField(&first, key); !ok {
			t.Errorf("%s: %s is not a Config key", p, key)
			continue
		}
		var base, changed Config
		reads := false
		for _, b := range []Config{first, tight} {
			for _, c := range bumps(b, key) { // some value in range changes p's run
				if !reads && c.Validate() == nil && runJSON(t, c) != runJSON(t, b) {
					base, changed, reads = b, c, true
				}
			}
		}
		if !assert.True(t, reads, "%s reads %s: some value of it changes the run", p, key) {
			continue
		}
		for _, q := range Policies {
			if slices.Contains(q.Settings(), key) || key == "refusal_cost_ms" && q.Refuses() {
				continue
			}
			other, otherChanged := base, changed
			other.Policy, otherChanged.Policy = q, q
			assert.True(t, runJSON(t, other) == runJSON(t, otherChanged), "%s does not read %s: changing it changes nothing", q, key)
			err := otherChanged.Unused([]string{key}, Scope{})
			if assert.Error(t, err, "Unused refuses %s under %s", key, q) {
				assert.Contains(t, err.Error(), "policy "+p.String(), "and names %s, which reads it", p)
			}
		}
		assert.NoError(t, changed.Unused([]string{key}, Scope{}), "%s counts under %s", key, p)
	}
	if !p.Refuses() { // the refusal cost is the refusing policies' (rule 12)
		c := first
		c.RefusalCostMS = 20
		assert.Error(t, c.Unused([]string{"refusal_cost_ms"}, Scope{}), "%s never refuses: a refusal cost counts for nothing", p)
		assert.True(t, runJSON(t, first) == runJSON(t, c), "%s never refuses: a refusal cost changes nothing", p)
	}
}

// bumps are base with key's field set to values far from its own: ten
// times it and a tenth of it (5 and 1 from 0); and for a setting whose 0
// stands for a default, past the default both ways, and its range's ends.
func bumps(base Config, key string) []Config {
	s, _ := SettingByKey(key)
	v := s.Of(&base)
	var x float64
	if v.Kind() == reflect.Float64 {
		x = v.Float()
	} else {
		x = float64(v.Int())
	}
	xs := []float64{x * 10, x / 10, 5, 1}
	if def, err := strconv.ParseFloat(s.Zero, 64); err == nil && x == 0 {
		xs = []float64{def*2 + 1, def / 2, s.Min, (def + s.Max) / 2, s.Max}
	}
	var out []Config
	for _, y := range xs {
		c := base
		if v.Kind() == reflect.Int {
			s.Of(&c).SetInt(int64(y))
		} else {
			s.Of(&c).SetFloat(y)
		}
		if c != base {
			out = append(out, c)
		}
	}
	return out
}

// checkPolicyRuns runs p on the sale, with and without retries, and
// checks the invariants, that it refuses only if its spec says it may,
// and that the arrival-order path computes it exactly when its spec says
// so, and then as the event loop does.
func checkPolicyRuns(t *testing.T, p Policy) {
	for _, retries := range []int{0, 3} {
		c := DefaultConfig()
		c.Policy, c.Retries = p, retries
		r, err := Run(c)
		require.NoError(t, err)
		checkInvariants(t, c, r)
		if !p.Refuses() {
			assert.Zero(t, r.Sale.Refused, "%s never refuses", p)
		}
		assert.Equal(t, p.spec().arrivalOrder, arrivalOrderTakes(c), "%s: the arrival-order path takes it as its spec says", p)
		assert.Equal(t, p.spec().limiter != nil, r.Limit != nil, "%s: a Result reports a limit for a policy with one", p)
		if r.Limit != nil {
			assert.LessOrEqual(t, r.Limit.Lowest, r.Limit.AtEnd)
			assert.LessOrEqual(t, r.Limit.AtEnd, r.Limit.Highest)
			assert.LessOrEqual(t, r.Limit.Refused, r.Attempts, "%s: the limit refuses attempts", p)
			if retries == 0 { // a refused person is one refused attempt, and only the limit refuses
				assert.Equal(t, r.Limit.Refused, r.Sale.Refused+countRefusedOutsideSale(r), "%s: every refusal is the limit's", p)
			}
		}
		c.SeriesStepS = 1
		rs, err := Run(c)
		require.NoError(t, err)
		for _, pt := range rs.Series.Points {
			if r.Limit == nil {
				require.Zero(t, pt.Limit+pt.InFlight, "%s: no limit in the series of a policy without one", p)
				continue
			}
			assert.True(t, pt.Limit >= r.Limit.Lowest && pt.Limit <= r.Limit.Highest, "%s at %v s: the limit %d within its range over the run", p, pt.StartS, pt.Limit)
			assert.GreaterOrEqual(t, pt.InFlight, 0)
		}
		if p.spec().arrivalOrder {
			assert.True(t, sameByBothPaths(t, fmt.Sprintf("%s with %d retries", p, retries), c), "%s: computed by the arrival-order path", p)
		}
	}
}

// configField returns the field of c whose JSON key is key.
func configField(c *Config, key string) (reflect.Value, bool) {
	s, ok := SettingByKey(key)
	if !ok {
		return reflect.Value{}, false
	}
	v := s.Of(c)
	return v, v.IsValid()
}

func runJSON(t *testing.T, c Config) string {
	t.Helper()
	r, err := Run(c)
	require.NoError(t, err)
	r.Config = Config{} // the runs differ in their Config; compare what they measured
	b, err := json.Marshal(r)
	require.NoError(t, err)
	return string(b)
}
