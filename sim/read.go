package sim

import (
	"errors"
	"math"
	"strconv"
	"strings"
)

// This file is how every interface reads a value it is given as text: the
// command line's flags, the page's form and address, a widget's
// attributes and the JS API's strings read a number with ParseNumber
// (Setting.ParseNumber picks ParseWhole or ParseShare), and a word (a
// policy, a client, a shape, a sample) by its key, ignoring case and the
// spaces around it (keys.parse, SampleByKey). So "0x10" is refused, and
// " Bounded" is bounded, wherever it is typed.

// ErrNotDecimal is ParseNumber's error for text that is not a number
// written in plain decimal.
var ErrNotDecimal = errors.New("not a number written in plain decimal")

// ErrNotWhole is ParseWhole's error for a number that is not whole.
var ErrNotWhole = errors.New("not a whole number")

// ParseNumber reads text as a number written in plain decimal: an
// optional sign, digits with an optional fraction, or a fraction alone
// ("80", "-1.5", "5.", ".5"), and an optional exponent ("1e3", "2.5E-2"),
// with the spaces around it trimmed. Anything else is ErrNotDecimal:
// hexadecimal ("0x10"), digits grouped by underscores ("1_000") or spaces
// ("1 000"), "Inf", "NaN", and nothing at all. A number beyond a
// float64's range is ±Inf, with an error that wraps strconv.ErrRange.
func ParseNumber(text string) (float64, error) {
	t := strings.TrimSpace(text)
	if !decimal(t) {
		return 0, ErrNotDecimal
	}
	return strconv.ParseFloat(t, 64) // decimal has checked its syntax: at most ErrRange
}

// ParseWhole is ParseNumber for a whole number: one whose value is whole,
// so "16", "16.0" and "1.6e1" are all 16; "1.5" is ErrNotWhole. The
// number is returned as a float64, which holds every whole number of a
// setting's range exactly: a caller clamps it before it converts it to an
// integer.
func ParseWhole(text string) (float64, error) {
	x, err := ParseNumber(text)
	if err == nil && x != math.Trunc(x) {
		err = ErrNotWhole
	}
	return x, err
}

// ParseShare is ParseNumber for a share (Setting.Share), which may also be
// written as a percentage: "20%" and "20 %" are 0.2.
func ParseShare(text string) (float64, error) {
	t := strings.TrimSpace(text)
	pct, percent := strings.CutSuffix(t, "%")
	if !percent {
		return ParseNumber(t)
	}
	x, err := ParseNumber(pct)
	return x / 100, err
}

// Share reports whether the setting is a share: a number from 0 to at
// most 1, which may be given as a percentage (ParseShare).
func (s Setting) Share() bool { return s.Kind == Real && s.Min == 0 && s.Max <= 1 }

// ParseNumber reads text as the setting's number: a whole number
// (ParseWhole) for a Whole or a Seed, a share (ParseShare) for a share,
// and ParseNumber for any other number. A Choice's words are read by its
// type's UnmarshalText, which ignores case and the spaces around them.
func (s Setting) ParseNumber(text string) (float64, error) {
	switch {
	case s.Kind == Whole || s.Kind == Seed:
		return ParseWhole(text)
	case s.Share():
		return ParseShare(text)
	}
	return ParseNumber(text)
}

// decimal reports whether t is a number in plain decimal, as ParseNumber
// reads it.
func decimal(t string) bool {
	i := 0
	sign := func() {
		if i < len(t) && (t[i] == '+' || t[i] == '-') {
			i++
		}
	}
	digits := func() int {
		n := 0
		for ; i < len(t) && '0' <= t[i] && t[i] <= '9'; i++ {
			n++
		}
		return n
	}
	sign()
	n := digits()
	if i < len(t) && t[i] == '.' {
		i++
		n += digits()
	}
	if n == 0 {
		return false
	}
	if i < len(t) && (t[i] == 'e' || t[i] == 'E') {
		i++
		sign()
		if digits() == 0 {
			return false
		}
	}
	return i == len(t)
}
