package report_test

import (
	"encoding"
	"encoding/json"
	"math"
	"reflect"
	"slices"
	"strconv"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/shedsim/shedsim/sim"
	"github.com/shedsim/shedsim/sim/report"
)

// TestClientComparisonTakesWhatItReads holds the client comparison
// (BuildClients, shedsim --clients, shedsim.clients) to sim.Config.Unused
// with Scope{EveryClient: true}, setting by setting, reflectively: a
// setting that some value changes the comparison with must be taken, and
// one that no value changes it with must be refused, so a setting added
// later that the comparison ignores cannot be taken silently (issue 27,
// item 5: --clients --order-share 0.3 was). Each is tried in the shop's
// sale with retries, and where it needs a shape or a trigger on, with
// those of a sample that has them.
func TestClientComparisonTakesWhatItReads(t *testing.T) {
	base := sim.DefaultConfig()
	base.Retries = 1 // a retry storm, as cheap as one gets
	scope := sim.Scope{EveryClient: true}
	seen := map[sim.Config]string{}
	rows := func(c sim.Config) string {
		if r, ok := seen[c]; ok {
			return r
		}
		v, err := report.BuildClients(c)
		require.NoError(t, err)
		b, err := json.Marshal(v.Rows)
		require.NoError(t, err)
		seen[c] = string(b)
		return seen[c]
	}
	for _, s := range sim.Settings() {
		var takes, refuses []sim.Config // the Configs with s changed that Unused must take, or refuse
		tried := 0
		for _, ch := range changes(base, s) {
			if ch.from.Validate() != nil || ch.to.Validate() != nil {
				continue
			}
			tried++
			if rows(ch.from) != rows(ch.to) {
				takes = append(takes, ch.to)
				break
			}
			refuses = append(refuses, ch.to)
		}
		if !assert.NotZero(t, tried, "%s: no value of it validates here: give changes a value that does", s.Key) {
			continue
		}
		if len(takes) > 0 {
			assert.NoError(t, takes[0].Unused([]string{s.Key}, scope), "%s changes the client comparison: it counts", s.Key)
			continue
		}
		for _, c := range refuses {
			assert.Error(t, c.Unused([]string{s.Key}, scope), "%s changes nothing in the client comparison (%s=%v): it must be refused",
				s.Key, s.Key, s.Of(&c).Interface())
		}
	}
}

// dayTable is a rate table whose sale is not the post's, and whose
// windows above 80 and 100 a second differ.
const dayTable = "0:60,100:160,160:90,200:60"

// chainText is a hop behind the shop (rule 40) that retries as Envoy does.
const chainText = "payments: workers=8 service_ms=40 timeout_ms=1500 proxy=envoy"

// change is a Config and the same with one setting changed (and, where
// it needs them, the shape or trigger it belongs to).
type change struct{ from, to sim.Config }

// changes are base with s changed (values): from base itself, and from
// base with s and the settings it goes with (its shape or trigger, and
// theirs) as each sample has them, so that a setting that counts only
// with a shape or a trigger on is tried with it on; and base to each of
// those.
func changes(base sim.Config, s sim.Setting) []change {
	starts := []sim.Config{base}
	group := related(s)
	if s.Key == "arrivals" || s.Owner.Switch == "arrivals" { // a table its knobs change
		c := base
		c.Arrivals = dayTable
		starts = append(starts, c)
	}
	for _, sample := range sim.Samples() {
		c := base
		for _, r := range group {
			r.Of(&c).Set(r.Of(&sample.Config))
		}
		if !slices.Contains(starts, c) {
			starts = append(starts, c)
		}
	}
	var out []change
	for i, from := range starts {
		if i > 0 {
			out = append(out, change{base, from})
		}
		for _, to := range values(from, s) {
			out = append(out, change{from, to})
		}
	}
	return out
}

// related are s and the settings it goes with: those its value turns on
// (Owner.Switch), the one that turns it on, and that one's others.
func related(s sim.Setting) []sim.Setting {
	sw := s.Key
	if s.Owner.Switch != "" {
		sw = s.Owner.Switch
	}
	var out []sim.Setting
	for _, r := range sim.Settings() {
		if r.Key == sw || r.Key == s.Key || r.Owner.Switch == sw {
			out = append(out, r)
		}
	}
	return out
}

// values are c with s changed: a choice to each of its values; a number
// to ten times and a tenth of its value, 5 and 1 (and past the default
// its 0 stands for), or if none of those is valid, to its range's middle
// and ends.
func values(c sim.Config, s sim.Setting) []sim.Config {
	var out []sim.Config
	v := s.Of(&c)
	if s.Kind == sim.Table {
		for _, text := range []string{dayTable, "50:100,100:150,inf:160", chainText} {
			d := c
			s.Of(&d).SetString(text)
			if d != c {
				out = append(out, d)
			}
		}
		return out
	}
	if s.Kind == sim.Choice {
		for i := int64(0); ; i++ {
			d := c
			s.Of(&d).SetInt(i)
			if _, err := s.Of(&d).Interface().(encoding.TextMarshaler).MarshalText(); err != nil {
				return out // past its last value
			}
			if d != c {
				out = append(out, d)
			}
		}
	}
	var x float64
	switch v.Kind() {
	case reflect.Float64:
		x = v.Float()
	case reflect.Int:
		x = float64(v.Int())
	case reflect.Uint64:
		x = float64(v.Uint())
	}
	ys := []float64{x * 10, x / 10, 5, 1}
	if s.Key == "sale_threshold_rps" { // inside dayTable's rates
		ys = append(ys, 80, 100)
	}
	if def, err := strconv.ParseFloat(s.Zero, 64); err == nil && x == 0 {
		ys = append(ys, def*2+1, def/2)
	}
	out = set(c, s, ys)
	if !slices.ContainsFunc(out, func(d sim.Config) bool { return d.Validate() == nil }) {
		out = set(c, s, []float64{(s.Min + s.Max) / 2, s.Min, s.Max})
	}
	return out
}

// set is c with the number s set to each of ys that its type holds, but
// its own.
func set(c sim.Config, s sim.Setting, ys []float64) []sim.Config {
	var out []sim.Config
	for _, y := range ys {
		d := c
		w := s.Of(&d)
		switch {
		case w.Kind() == reflect.Float64:
			w.SetFloat(y)
		case y != math.Trunc(y) || y < 0 && w.Kind() == reflect.Uint64 || math.Abs(y) > 1e15:
			continue
		case w.Kind() == reflect.Int:
			w.SetInt(int64(y))
		case w.Kind() == reflect.Uint64:
			w.SetUint(uint64(y))
		}
		if d != c {
			out = append(out, d)
		}
	}
	return out
}
