package sim

import (
	"encoding"
	"encoding/json"
	"errors"
	"math"
	"os"
	"strconv"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestReadings reads testdata/readings.json, the table of values that
// tools/shedsim's and wasm's TestReadingsAsTheOthers feed the command
// line, the JS API and the page (issue 27, item 7), with the functions
// they all call: each is read, or refused, here as there.
func TestReadings(t *testing.T) {
	b, err := os.ReadFile("testdata/readings.json")
	require.NoError(t, err)
	var rows []struct {
		Key, Text, Want, Reason string
	}
	require.NoError(t, json.Unmarshal(b, &rows))
	for _, r := range rows {
		var got string
		var err error
		switch s, ok := SettingByKey(r.Key); {
		case r.Key == "sample":
			var sample Sample
			if sample, ok = SampleByKey(r.Text); ok {
				got = sample.Key
			} else {
				err = errors.New("no sample")
			}
		case !ok:
			t.Fatalf("%s: no setting %s", r.Reason, r.Key)
		case s.Kind == Choice:
			c := DefaultConfig()
			v := s.Of(&c).Addr().Interface()
			if err = v.(encoding.TextUnmarshaler).UnmarshalText([]byte(r.Text)); err == nil {
				text, _ := v.(encoding.TextMarshaler).MarshalText()
				got = string(text)
			}
		default:
			var x float64
			x, err = s.ParseNumber(r.Text)
			got = strconv.FormatFloat(x, 'f', -1, 64)
		}
		if r.Want == "" {
			assert.Error(t, err, "%s: %q is refused", r.Reason, r.Text)
			continue
		}
		if assert.NoError(t, err, "%s: %q", r.Reason, r.Text) {
			assert.Equal(t, r.Want, got, "%s: %q", r.Reason, r.Text)
		}
	}
}

// TestParseNumber: plain decimal and nothing else, and what a number out
// of a float64's range reads as.
func TestParseNumber(t *testing.T) {
	for _, ok := range []string{"0", "-0", "+1", "1.", ".5", "1e5", "1E+5", "1.5e-3", " \t8\n", "00012"} {
		_, err := ParseNumber(ok)
		assert.NoError(t, err, "%q is plain decimal", ok)
	}
	for _, bad := range []string{"", " ", ".", "+", "-", "e5", "1e", "1e+", "1.2.3", "1,000", "1_000", "1 000", "0x10", "0b1", "0o7", "0x1p4",
		"Inf", "+Inf", "-Infinity", "NaN", "1f", "--1", "+-1", "١٢"} {
		_, err := ParseNumber(bad)
		assert.ErrorIs(t, err, ErrNotDecimal, "%q is not plain decimal", bad)
	}
	x, err := ParseNumber("1e400")
	assert.ErrorIs(t, err, strconv.ErrRange, "beyond a float64")
	assert.True(t, math.IsInf(x, 1))
	x, err = ParseNumber("1e-400")
	assert.NoError(t, err, "below a float64's smallest is 0, as strconv.ParseFloat reads it")
	assert.Zero(t, x)

	_, err = ParseWhole("1.5")
	assert.ErrorIs(t, err, ErrNotWhole)
	x, err = ParseShare(" 20 % ")
	assert.NoError(t, err)
	assert.Equal(t, 0.2, x)
	_, err = ParseShare("%")
	assert.ErrorIs(t, err, ErrNotDecimal, "a percent sign alone")
	_, err = ParseShare("20%%")
	assert.ErrorIs(t, err, ErrNotDecimal, "two of them")
}
