package sweep

import (
	"math"
	"reflect"
	"strconv"
	"strings"
	"sync"

	"github.com/shedsim/shedsim/sim"
	"github.com/shedsim/shedsim/sim/internal/limits"
)

// Knob is one numeric field of sim.Config that a sweep can vary, named by
// its JSON key ("sale_rps"). Every numeric field is a knob but the seed,
// which a sweep holds to its common seeds rather than varies, and the
// series' step, which changes what is recorded, not what happens.
type Knob struct {
	// Key is the field's JSON key, as the URL, the form and (with dashes)
	// the command line's flags spell it.
	Key string
	// Whole is true for a field that holds a whole number (workers,
	// retries, queue, the budget's tokens): its values must be whole.
	Whole bool
	// Hop is, for a hop's setting in a chain (rule 40), the hop's name:
	// the knob "payments.retries" is Hop "payments", Key "retries" (a
	// key of sim.HopNumberKeys); "" for the Config's own.
	Hop string
}

// knobs are sim.Config's numeric settings but the seed, in the order of the
// Config. They are read from the settings (sim.Settings), so that a field
// added to them is a knob at once; the first time they are asked for, so
// that a program that links the package and never sweeps (the page's
// module, through sim/report) carries no code to find them.
func knobs() []Knob {
	knobsOnce.Do(func() { knobList = findKnobs() })
	return knobList
}

var (
	knobsOnce sync.Once
	knobList  []Knob
)

func findKnobs() []Knob {
	var out []Knob
	for _, s := range sim.Settings() {
		if s.Owner.Kind == sim.BySeries { // what is recorded, not what happens
			continue
		}
		switch s.Kind {
		case sim.Whole:
			out = append(out, Knob{Key: s.Key, Whole: true})
		case sim.Real:
			out = append(out, Knob{Key: s.Key})
		}
	}
	return out
}

// Knobs returns every knob, in the order of sim.Config's fields.
func Knobs() []Knob { return append([]Knob(nil), knobs()...) }

// KnobKeys returns every knob's key, in the order of Knobs, for messages.
func KnobKeys() []string {
	out := make([]string, len(knobs()))
	for i, k := range knobs() {
		out[i] = k.Key
	}
	return out
}

// ParseKnob returns the knob whose key is s, written as the JSON key
// ("sale_rps") or as the command line's flag ("sale-rps", "--sale-rps");
// the command line's "spike" is sale_rps, as the post spells it.
func ParseKnob(s string) (Knob, error) {
	if hop, key, ok := strings.Cut(strings.TrimLeft(strings.TrimSpace(s), "-"), "."); ok {
		key = strings.ReplaceAll(strings.ToLower(key), "-", "_")
		whole, known := sim.HopNumberKey(key)
		if !known || hop == "" {
			return Knob{}, &sim.FieldError{Field: "knob", Msg: strconv.Quote(clip(s)) + " is not a hop's numeric setting: write the hop's name, a dot and one of " +
				strings.Join(sim.HopNumberKeys(), ", ") + " (payments.retries)"}
		}
		return Knob{Key: key, Whole: whole, Hop: hop}, nil
	}
	key := strings.ReplaceAll(strings.TrimLeft(strings.ToLower(strings.TrimSpace(s)), "-"), "-", "_")
	if key == "spike" {
		key = "sale_rps"
	}
	for _, k := range knobs() {
		if k.Key == key {
			return k, nil
		}
	}
	if key == "seed" {
		return Knob{}, sim.NewFieldError("knob", "the seed is not a knob: every step runs the same seeds (see {seeds})")
	}
	return Knob{}, &sim.FieldError{Field: "knob", Msg: strconv.Quote(clip(s)) + " is not a numeric field: use one of " + strings.Join(KnobKeys(), ", ")}
}

// of is the knob's field in *c.
func (k Knob) of(c *sim.Config) reflect.Value {
	s, _ := sim.SettingByKey(k.Key)
	return s.Of(c)
}

// Name is the knob as ParseKnob reads it: "workers", "payments.retries".
func (k Knob) Name() string {
	if k.Hop != "" {
		return k.Hop + "." + k.Key
	}
	return k.Key
}

// checkBase says what is wrong with the knob in base, "" for nothing: a
// hop's knob needs base to have the hop.
func (k Knob) checkBase(base sim.Config) string {
	if k.Hop == "" {
		return ""
	}
	if _, ok := base.HopNumber(k.Hop, k.Key); !ok {
		var names []string
		for _, h := range base.HopList() {
			names = append(names, h.Name)
		}
		if len(names) == 0 {
			return "the run has no hops, so no " + strconv.Quote(clip(k.Hop)) + " to vary: give {hops}"
		}
		return "the run has no hop named " + strconv.Quote(clip(k.Hop)) + ": use one of " + strings.Join(names, ", ")
	}
	return ""
}

// Get returns the knob's value in c.
func (k Knob) Get(c sim.Config) float64 {
	if k.Hop != "" {
		x, _ := c.HopNumber(k.Hop, k.Key)
		return x
	}
	v := k.of(&c)
	if k.Whole {
		return float64(v.Int())
	}
	return v.Float()
}

// With returns c with the knob set to x. A whole knob takes x as a whole
// number: checkValue has refused any other.
func (k Knob) With(c sim.Config, x float64) sim.Config {
	if k.Hop != "" {
		return c.WithHopNumber(k.Hop, k.Key, x)
	}
	v := k.of(&c)
	if k.Whole {
		v.SetInt(int64(x))
	} else {
		v.SetFloat(x)
	}
	return c
}

// maxWhole bounds a whole knob's values before they become ints, so that
// no value is clamped on the way (sim's own limits are far below it).
const maxWhole = 1 << 40

// checkValue says what is wrong with x as a value of k, or "", with the
// knob marked for sim.NewFieldError.
func (k Knob) checkValue(x float64) string {
	switch {
	case math.IsNaN(x):
		return "NaN is not a number"
	case math.IsInf(x, 0):
		return num(x) + " is not a finite number"
	case k.Whole && math.Abs(x) > maxWhole:
		return num(x) + " is too large for {" + k.Key + "}"
	case k.Whole && x != math.Trunc(x):
		return num(x) + " is not a whole number, and {" + k.Key + "} is one"
	}
	return ""
}

// Label names the knob at the value it has in c, for a sentence: "19
// workers", "3 retries", "a bound of 50 (0.5 s of work)", "sale_rps
// 180/s", "timeout_ms 1500 ms".
func (k Knob) Label(c sim.Config) string {
	x := k.Get(c)
	if k.Hop != "" {
		switch k.Key {
		case "workers":
			return plural(x, "worker", "workers") + " at " + k.Hop
		case "retries":
			return plural(x, "retry", "retries") + " at " + k.Hop
		}
		return k.Name() + " " + num(x) + k.Unit()
	}
	switch k.Key {
	case "workers":
		return plural(x, "worker", "workers")
	case "retries":
		return plural(x, "retry", "retries")
	case "queue":
		if x == 0 {
			return "the automatic bound of " + num(float64(c.QueueBound())) + " (" + work(c.QueueSeconds()) + ")"
		}
		return "a bound of " + num(x) + " (" + work(c.QueueSeconds()) + ")"
	}
	return k.Key + " " + num(x) + k.Unit()
}

// Unit is the knob's unit as its key ends, for a label after a number:
// "_ms" is " ms", "_rps" "/s",
// "_s" " s"; none for the rest.
func (k Knob) Unit() string {
	switch {
	case strings.HasSuffix(k.Key, "_ms"):
		return " ms"
	case strings.HasSuffix(k.Key, "_rps"):
		return "/s"
	case strings.HasSuffix(k.Key, "_s"):
		return " s"
	}
	return ""
}

func plural(x float64, one, many string) string {
	if x == 1 {
		return "1 " + one
	}
	return num(x) + " " + many
}

// num formats a value for a message as sim's messages do (grouped:
// 2,000,000), to at most 6 significant digits, so that a step computed as
// 0.1 + 0.2 reads 0.3.
func num(x float64) string {
	if r, err := strconv.ParseFloat(strconv.FormatFloat(x, 'g', 6, 64), 64); err == nil && !math.IsInf(x, 0) {
		x = r
	}
	return limits.Num(x)
}

// work is a queue's worth of work in seconds as a time: "70 ms of work"
// under a second, "1.5 s of work" from a second up.
func work(s float64) string {
	if ms := math.Round(s * 1000); ms < 1000 {
		return num(ms) + " ms of work"
	}
	return num(math.Round(s*100)/100) + " s of work"
}

// clip is s, or its first 40 characters and "...", so that a message never
// echoes a long input back.
func clip(s string) string {
	if len(s) <= 40 {
		return s
	}
	return s[:40] + "..."
}
