package sim

import (
	"reflect"
	"strings"
)

// A hop's numbers (its workers, its proxy's retries) are knobs a sweep, a
// map or a seek may vary, as "payments.retries": the hop's name, a dot,
// and the key its line spells (ParseHops).

// HopNumberKeys returns the keys of a hop's numeric settings and its
// proxy's, in the order of Hop's and Proxy's fields.
func HopNumberKeys() []string {
	var out []string
	for _, f := range hopNumbers() {
		out = append(out, f.key)
	}
	return out
}

// hopNumber is one numeric field of Hop, or of its Proxy (inProxy).
type hopNumber struct {
	key     string
	index   []int // in Hop
	whole   bool
	inProxy bool
}

// hopNumbers are Hop's numeric fields and its Proxy's, by their JSON keys.
func hopNumbers() []hopNumber {
	var out []hopNumber
	add := func(t reflect.Type, prefix []int, inProxy bool) {
		for i := range t.NumField() {
			f := t.Field(i)
			key, _, _ := strings.Cut(f.Tag.Get("json"), ",")
			index := append(append([]int(nil), prefix...), i)
			switch f.Type.Kind() {
			case reflect.Int:
				if f.Type == reflect.TypeFor[int]() {
					out = append(out, hopNumber{key, index, true, inProxy})
				}
			case reflect.Float64:
				out = append(out, hopNumber{key, index, false, inProxy})
			}
		}
	}
	ht := reflect.TypeFor[Hop]()
	add(ht, nil, false)
	for i := range ht.NumField() {
		if f := ht.Field(i); f.Type == reflect.TypeFor[Proxy]() {
			add(f.Type, f.Index, true)
		}
	}
	return out
}

// HopNumberKey reports whether key is a hop's numeric setting, and
// whether it holds a whole number.
func HopNumberKey(key string) (whole, ok bool) {
	for _, f := range hopNumbers() {
		if f.key == key {
			return f.whole, true
		}
	}
	return false, false
}

// HopNumber returns the value of key in the hop of c named hop; ok is
// false when c has no such hop or key.
func (c Config) HopNumber(hop, key string) (x float64, ok bool) {
	hops := c.HopList()
	for _, f := range hopNumbers() {
		if f.key != key {
			continue
		}
		for _, h := range hops {
			if h.Name == hop {
				v := reflect.ValueOf(h).FieldByIndex(f.index)
				if f.whole {
					return float64(v.Int()), true
				}
				return v.Float(), true
			}
		}
	}
	return 0, false
}

// WithHopNumber returns c with key set to x in the hop named hop, its
// hops written again by FormatHops; c as it is when it has no such hop
// or key (HopNumber says).
func (c Config) WithHopNumber(hop, key string, x float64) Config {
	hops := c.HopList()
	for _, f := range hopNumbers() {
		if f.key != key {
			continue
		}
		for k := range hops {
			if hops[k].Name != hop {
				continue
			}
			v := reflect.ValueOf(&hops[k]).Elem().FieldByIndex(f.index)
			if f.whole {
				v.SetInt(int64(x))
			} else {
				v.SetFloat(x)
			}
			c.Hops = FormatHops(hops)
			return c
		}
	}
	return c
}
