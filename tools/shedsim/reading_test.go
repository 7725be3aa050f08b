package main

import (
	"encoding"
	"encoding/json"
	"maps"
	"os"
	"slices"
	"strconv"
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

// settingText is key's value in c as the form writes it: "16", "0.3",
// "fifo".
func settingText(t *testing.T, c sim.Config, key string) string {
	s, ok := sim.SettingByKey(key)
	require.True(t, ok, key)
	switch v := s.Of(&c).Interface().(type) {
	case float64:
		return strconv.FormatFloat(v, 'f', -1, 64)
	case int:
		return strconv.Itoa(v)
	case uint64:
		return strconv.FormatUint(v, 10)
	case encoding.TextMarshaler:
		b, err := v.MarshalText()
		require.NoError(t, err)
		return string(b)
	}
	t.Fatalf("%s: a setting of no type the form writes", key)
	return ""
}

// TestReadingsAsTheOthers reads each value of the table with the command
// line's flags, as one run's --json, and requires the outcome that
// wasm's TestReadingsAsTheOthers requires of the JS API and the page.
func TestReadingsAsTheOthers(t *testing.T) {
	for _, r := range readings(t) {
		args := []string{"--json"}
		if r.Key != "policy" && r.Key != "sample" {
			args = append(args, "--policy", "fifo")
		}
		args = append(args, "--"+flagName(r.Key), r.Text)
		for _, k := range slices.Sorted(maps.Keys(r.With)) {
			args = append(args, "--"+flagName(k), r.With[k])
		}
		out, _, err := runArgs(t, args...)
		if r.Want == "" {
			assert.Error(t, err, "%s: %q is refused: %v", r.Reason, r.Text, args)
			continue
		}
		if !assert.NoError(t, err, "%s: %q is read as %s", r.Reason, r.Text, r.Want) {
			continue
		}
		var res sim.Result
		require.NoError(t, json.Unmarshal([]byte(out), &res))
		if r.Key == "sample" {
			s, ok := sim.SampleByKey(r.Want)
			require.True(t, ok, r.Want)
			assert.Equal(t, s.Config, res.Config, "%s: %q is the sample %s", r.Reason, r.Text, r.Want)
			continue
		}
		assert.Equal(t, r.Want, settingText(t, res.Config, r.Key), "%s: %q", r.Reason, r.Text)
	}
}
