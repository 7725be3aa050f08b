package sim

import (
	"encoding"
	"math"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestSettings holds the settings table to Config: one setting a field,
// in its order, of the field's kind, in a group the form has, with a
// label and help, and an owner Unused can read.
func TestSettings(t *testing.T) {
	var keys []string
	for _, f := range reflect.VisibleFields(reflect.TypeFor[Config]()) {
		if !f.Anonymous {
			k, _, _ := strings.Cut(f.Tag.Get("json"), ",")
			keys = append(keys, k)
		}
	}
	var got []string
	text := reflect.TypeFor[encoding.TextUnmarshaler]()
	for _, s := range Settings() {
		got = append(got, s.Key)
		typ := s.Type()
		require.NotNil(t, typ, "%s: a Config field has this key", s.Key)
		switch s.Kind {
		case Choice:
			assert.True(t, reflect.PointerTo(typ).Implements(text), "%s: a choice reads its words", s.Key)
		case Whole:
			assert.Equal(t, reflect.Int, typ.Kind(), "%s: a whole number is an int", s.Key)
		case Real:
			assert.Equal(t, reflect.Float64, typ.Kind(), "%s: a number is a float64", s.Key)
		case Seed:
			assert.Equal(t, reflect.Uint64, typ.Kind(), "%s: a seed is a uint64", s.Key)
		case Table:
			assert.Equal(t, reflect.String, typ.Kind(), "%s: a table is its text", s.Key)
		}
		assert.Contains(t, Groups, s.Group, "%s: in one of the form's groups", s.Key)
		assert.NotEmpty(t, s.Label, "%s: a label", s.Key)
		assert.NotEmpty(t, s.Help, "%s: help for the command line", s.Key)
		if s.Kind != Choice && s.Kind != Table {
			assert.Less(t, s.Min, s.Max, "%s: a range", s.Key)
		}
		switch s.Owner.Kind {
		case ByPolicy:
			assert.NotEmpty(t, policyOwners(s.Key), "%s: some policy reads it (policySpec.settings)", s.Key)
		case ByClient:
			assert.NotEmpty(t, s.Owner.Clients, "%s: the clients that read it", s.Key)
		case ByShape, ByTrigger:
			_, ok := SettingByKey(s.Owner.Switch)
			assert.True(t, ok, "%s: the setting that turns it on, %q, is a setting", s.Key, s.Owner.Switch)
		}
	}
	assert.Equal(t, keys, got, "one setting for each Config field, in the Config's order")
	for _, p := range Policies {
		for _, key := range p.Settings() {
			s, ok := SettingByKey(key)
			if assert.True(t, ok, "%s's setting %s is a setting", p, key) {
				assert.Equal(t, ByPolicy, s.Owner.Kind, "%s: %s owns it", key, p)
			}
		}
	}
}

// settingOn is DefaultConfig with what makes key's setting count: the
// shape or the trigger it belongs to.
func settingOn(key string) Config {
	c := DefaultConfig()
	switch key {
	case "service_p99_ms":
		c.Service, c.ServiceP99MS = LognormalService, 600
	case "patience_ms":
		c.Patience, c.PatienceMS = ExponentialPatience, 3000
	case "sale_every_s":
		c.SaleS, c.SaleWaves, c.SaleEveryS = 30, 2, 90
	case "loss_start_s", "loss_s":
		c.LossWorkers, c.LossStartS, c.LossS = 3, 60, 30
	case "loss_workers": // at most the workers there are
		c.Workers = maxWorkers
	case "slow_start_s", "slow_s":
		c.SlowFactor, c.SlowStartS, c.SlowS = 3, 60, 20
	}
	return c
}

// TestSettingsRefuseOutOfRange feeds every numeric setting NaN, the
// infinities and the neighbours of its range, and a time that rounds to
// no nanosecond, and requires Validate to refuse each, naming the field;
// and its range's ends, which it must not call out of range.
func TestSettingsRefuseOutOfRange(t *testing.T) {
	outOfRange := []string{"out of range", "too small", "too large", "not a number", "not a finite number", "rounds to 0 ns"}
	for _, s := range Settings() {
		if s.Kind == Choice {
			continue
		}
		var bad, good []float64
		switch s.Kind {
		case Real:
			bad = []float64{math.NaN(), math.Inf(1), math.Inf(-1), math.Nextafter(s.Min, math.Inf(-1)), math.Nextafter(s.Max, math.Inf(1))}
			good = []float64{s.Max}
			if s.MaxOpen {
				bad, good = append(bad, s.Max), nil
			}
			if s.MinOpen {
				if s.Zero == "" {
					bad = append(bad, s.Min)
				}
			} else {
				good = append(good, s.Min)
			}
			if s.Zero != "" && s.Min > 0 {
				bad = append(bad, s.Min/2)
			}
			if ns := nsPer(s.Key); ns > 0 {
				bad = append(bad, 0.4/ns) // 0.4 ns
			}
		case Whole:
			bad = []float64{s.Min - 1, s.Max + 1}
			if s.Zero != "" {
				bad[0] = -1
			}
			good = []float64{s.Min, s.Max}
		case Seed:
			bad = []float64{s.Max + 1}
			good = []float64{s.Min, s.Max}
		}
		for _, x := range bad {
			c := settingOn(s.Key)
			setNumber(&c, s, x)
			var named []string
			for _, fe := range FieldErrors(c.Validate()) {
				named = append(named, fe.Field)
			}
			assert.Contains(t, named, s.Key, "%s = %v is refused, naming %s", s.Key, x, s.Key)
		}
		for _, x := range good {
			c := settingOn(s.Key)
			setNumber(&c, s, x)
			for _, fe := range FieldErrors(c.Validate()) {
				if fe.Field != s.Key {
					continue
				}
				for _, w := range outOfRange {
					assert.NotContains(t, fe.Msg, w, "%s = %v is in its range", s.Key, x)
				}
			}
		}
	}
}

func setNumber(c *Config, s Setting, x float64) {
	v := s.Of(c)
	switch s.Kind {
	case Real:
		v.SetFloat(x)
	case Whole:
		v.SetInt(int64(x))
	case Seed:
		v.SetUint(uint64(x))
	}
}

// TestClientSettingsUnused checks each client's own settings against
// Unused: counted with that client and retries, refused with another. The
// policy refuses, as the budget's cost of a refusal needs.
func TestClientSettingsUnused(t *testing.T) {
	for _, s := range Settings() {
		if s.Owner.Kind != ByClient {
			continue
		}
		for _, cl := range Clients {
			c := DefaultConfig()
			c.Client, c.Retries, c.Policy = cl, 3, Bounded
			err := c.Unused([]string{s.Key}, Scope{})
			if slices.Contains(s.Owner.Clients, cl) {
				assert.NoError(t, err, "%s counts with the %s client", s.Key, cl)
			} else {
				assert.Error(t, err, "%s counts for nothing with the %s client", s.Key, cl)
			}
		}
	}
}
