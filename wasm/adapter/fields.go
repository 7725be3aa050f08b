package adapter

import (
	"encoding"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/shedsim/shedsim/sim"
)

// Field kinds, for decoding a value given as a JSON number or a string.
type kind uint8

const (
	kindFloat kind = iota // a real number
	kindInt               // a whole number (int)
	kindSeed              // a whole number from 0 (uint64)
	kindText              // a key such as a policy's, read by UnmarshalText
	kindShare             // a fraction, or a percentage written "5%"
	kindTable             // a table's text (sim.Table): a file's CSV, or its compact form
)

// configField is one key of sim.Config as the page, the URL and the JSON
// API spell it: its setting (sim.Settings), and how the page reads it.
type configField struct {
	Key     string
	kind    kind
	setting sim.Setting
}

// configFields lists every setting of sim.Config, in the order of its
// fields, so that a setting added to the engine reaches the page without a
// change here. adapter_test.go checks it.
var configFields = func() []configField {
	var out []configField
	for _, s := range sim.Settings() {
		var k kind
		switch s.Kind {
		case sim.Choice:
			k = kindText
		case sim.Whole:
			k = kindInt
		case sim.Seed:
			k = kindSeed
		case sim.Real:
			k = kindFloat
			if s.Min == 0 && s.Max <= 1 { // shares: 0.2 or 20%, as the planner's target
				k = kindShare
			}
		case sim.Table:
			k = kindTable
		}
		out = append(out, configField{s.Key, k, s})
	}
	return out
}()

func Fnum(x float64) string { return strconv.FormatFloat(x, 'f', -1, 64) }

// get returns the field's value in c as the form writes it.
func (f configField) get(c sim.Config) string {
	v := f.setting.Of(&c)
	switch f.kind {
	case kindText:
		b, err := v.Interface().(encoding.TextMarshaler).MarshalText()
		if err != nil {
			return strconv.FormatInt(v.Int(), 10)
		}
		return string(b)
	case kindInt:
		return strconv.FormatInt(v.Int(), 10)
	case kindSeed:
		return strconv.FormatUint(v.Uint(), 10)
	case kindTable:
		return v.String()
	}
	return Fnum(v.Float())
}

// set reads s into the field of c, or returns what is wrong with it.
// clamped is true when s is a whole number too large for any field, which
// set holds to 1e15 for Validate to refuse: its message then names that
// number, and configFrom restores the one given.
func (f configField) set(c *sim.Config, s Scalar, example string) (msg string, clamped bool) {
	if s.bad != "" {
		return s.bad, false
	}
	if f.kind == kindTable { // its text, read by Validate (sim.ParseRates, sim.ParseBuckets)
		if s.size > 0 || len(s.text) > sim.MaxTableBytes {
			return "the table is over " + GroupDigits(strconv.Itoa(sim.MaxTableBytes)) +
				" characters, the most a table may have: export fewer rows (a coarser step)", false
		}
		f.setting.Of(c).SetString(s.text)
		return "", false
	}
	if msg := s.tooLong(); msg != "" {
		return msg, false
	}
	v := f.setting.Of(c)
	if f.kind == kindText {
		if err := v.Addr().Interface().(encoding.TextUnmarshaler).UnmarshalText([]byte(strings.TrimSpace(s.text))); err != nil {
			msg := err.Error()
			// "unknown policy "x": use one of ..." becomes ""x" is not a
			// policy: use one of ...".
			if _, rest, ok := strings.Cut(msg, ": "); ok {
				msg = rest
			}
			return s.Show() + " is not a " + strings.ReplaceAll(f.Key, "_", " ") + ": " + msg, false
		}
		return "", false
	}
	x, i, u, msg := parseNumber(s, f.kind, example)
	if msg != "" {
		return msg, false
	}
	switch f.kind {
	case kindInt:
		v.SetInt(i)
		return "", math.Abs(x) > MaxWhole
	case kindSeed:
		v.SetUint(u)
	default:
		v.SetFloat(x)
	}
	return "", false
}

// MaxWhole is the largest whole number parseNumber reads as it is; a
// larger one is held to it (int64 of a huge float differs by platform),
// far outside every field's range.
const MaxWhole = 1e15

// ConfigKeys returns every Config key, in order.
func ConfigKeys() []string { return slices.Clone(configKeys) }

// configKeys are the Config's keys, made once: the form reads them at
// every keystroke.
var configKeys = func() []string {
	out := make([]string, len(configFields))
	for i, f := range configFields {
		out[i] = f.Key
	}
	return out
}()

func FieldByKey(key string) (configField, bool) {
	for _, f := range configFields {
		if f.Key == key {
			return f, true
		}
	}
	return configField{}, false
}

// Defaults is sim.DefaultConfig as strings, made once; read it, or take a
// copy to change with defaultStrings.
var Defaults = ConfigStrings(sim.DefaultConfig())

// ConfigStrings returns c as the form and the URL write it: each key's
// value as a string, such as "80" or "bounded".
//
//go:noinline
func ConfigStrings(c sim.Config) map[string]string {
	out := make(map[string]string, len(configFields))
	for _, f := range configFields {
		out[f.Key] = f.get(c)
	}
	return out
}
