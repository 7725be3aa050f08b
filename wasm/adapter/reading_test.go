package adapter

import (
	"encoding/json"
	"maps"
	"net/url"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/shedsim/shedsim/sim"
)

// reading is one row of sim/testdata/readings.json, the one table of
// values that the command line, the JS API and the page must read alike
// (issue 27, item 7): a setting's key (or "sample"), the text given,
// settings given with it, and the value read, as the form writes it, or
// "" when the text is refused.
type reading struct {
	Key    string            `json:"key"`
	Text   string            `json:"text"`
	With   map[string]string `json:"with"`
	Want   string            `json:"want"`
	Reason string            `json:"reason"`
}

func readings(t *testing.T) []reading {
	b, err := os.ReadFile("../../sim/testdata/readings.json")
	require.NoError(t, err)
	var rs []reading
	require.NoError(t, json.Unmarshal(b, &rs))
	return rs
}

// checkReading holds what one interface made of r: c, read, or the
// problems it named.
func checkReading(t *testing.T, who string, r reading, c sim.Config, problems []FieldMsg) {
	t.Helper()
	if r.Want == "" {
		assert.NotEmpty(t, problems, "%s: %s: %q is refused", who, r.Reason, r.Text)
		return
	}
	if !assert.Empty(t, problems, "%s: %s: %q is read as %s", who, r.Reason, r.Text, r.Want) {
		return
	}
	if r.Key == "sample" {
		s, ok := sim.SampleByKey(r.Want)
		require.True(t, ok, r.Want)
		assert.Equal(t, s.Config, c, "%s: %s: %q is the sample %s", who, r.Reason, r.Text, r.Want)
		return
	}
	f, ok := FieldByKey(r.Key)
	require.True(t, ok, r.Key)
	assert.Equal(t, r.Want, f.get(c), "%s: %s: %q", who, r.Reason, r.Text)
}

// TestReadingsAsTheOthers reads each value of the table with the JS API
// (shedsim.run, a plain object's string values) and with the page (its
// address), and requires the outcome that tools/shedsim's
// TestReadingsAsTheOthers requires of the command line's flags.
func TestReadingsAsTheOthers(t *testing.T) {
	for _, r := range readings(t) {
		given := maps.Clone(r.With)
		if given == nil {
			given = map[string]string{}
		}
		given[r.Key] = r.Text

		// The JS API takes a Config, not a sample (shedsim.samples()
		// gives each sample's Config).
		if r.Key != "sample" {
			obj := JsObject{}
			for k, v := range given {
				obj[k] = v
			}
			out := RunOf(ReadJS(FakeJS{obj}))
			var res struct {
				Config sim.Config `json:"config"`
				Errors []FieldMsg `json:"errors"`
				Error  *string    `json:"error"`
			}
			require.NoError(t, json.Unmarshal([]byte(out), &res), out)
			require.Nil(t, res.Error, out)
			checkReading(t, "the JS API", r, res.Config, res.Errors)
		}

		// The page: its address, then its form, as mountSimulator and
		// compute read them (a menu shows a choice by its key).
		var q []string
		for _, k := range slices.Sorted(maps.Keys(given)) {
			q = append(q, url.QueryEscape(k)+"="+url.QueryEscape(given[k]))
		}
		vals, problems := PageStart(ParseQuery("?" + strings.Join(q, "&")))
		for k, v := range vals {
			vals[k] = CanonicalChoice(k, v)
		}
		c, errs := ConfigFromStrings(sim.DefaultConfig(), vals, ViewRuns, SeedsKey)
		checkReading(t, "the page", r, c, append(problems, errs...))
	}
}

// TestPageNamesAnUnknownSample: a link's unknown sample is named on the
// page, with the samples to use, where the page ran the default without a
// word (issue 27, item 7); the link's other settings are kept.
func TestPageNamesAnUnknownSample(t *testing.T) {
	vals, problems := PageStart(ParseQuery("?sample=nope&workers=13"))
	require.Len(t, problems, 1)
	assert.Equal(t, "sample", problems[0].Field)
	assert.Contains(t, problems[0].Msg, `"nope" is not a sample: use one of sale, skip, bounded,`)
	assert.Contains(t, problems[0].Msg, "or leave it out for the shop's numbers")
	assert.Equal(t, "13", vals["workers"])
	_, problems = PageStart(ParseQuery("?sample=Retries"))
	assert.Empty(t, problems, "a sample's key in another case is the sample")
	_, problems = PageStart(ParseQuery("?sample=" + strings.Repeat("x", 100_000)))
	require.Len(t, problems, 1)
	assert.Less(t, len(problems[0].Msg), 1000, "a long key is quoted by its first characters")
}
