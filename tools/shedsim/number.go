package main

import (
	"errors"
	"flag"
	"math"
	"strconv"
	"strings"

	"github.com/shedsim/shedsim/sim"
)

// The command line's numbers are read as the page's and the JS API's are
// (sim.ParseNumber): in plain decimal, a share also as a percentage. The
// flag package's own number flags would also read "0x10", "1_000", "Inf"
// and "NaN", which the page and the JS API refuse.

// The errors a number flag's Set returns, worded as the flag package's
// own, which parseError reads.
var (
	errParse = errors.New("parse error")
	errRange = errors.New("value out of range")
)

// numberValue is a number flag; with share, a share (sim.ParseShare).
type numberValue struct {
	p     *float64
	share bool
}

func (v *numberValue) Set(s string) error {
	read := sim.ParseNumber
	if v.share {
		read = sim.ParseShare
	}
	x, err := read(s)
	switch {
	case errors.Is(err, strconv.ErrRange):
		return errRange
	case err != nil:
		return errParse
	}
	*v.p = x
	return nil
}

func (v *numberValue) String() string {
	if v == nil || v.p == nil {
		return "0"
	}
	return strconv.FormatFloat(*v.p, 'g', -1, 64)
}

func (v *numberValue) Get() any { return *v.p }

// probe sets the number to NaN, which no setting allows, for allowed; it
// returns what puts it back.
func (v *numberValue) probe() func() {
	old := *v.p
	*v.p = math.NaN()
	return func() { *v.p = old }
}

// wholeValue is a whole-number flag (sim.ParseWhole).
type wholeValue struct{ p *int }

func (v *wholeValue) Set(s string) error {
	x, err := sim.ParseWhole(s)
	switch {
	case errors.Is(err, strconv.ErrRange), err == nil && math.Abs(x) >= 1<<63:
		return errRange
	case err != nil:
		return errParse
	}
	*v.p = int(x)
	return nil
}

func (v *wholeValue) String() string {
	if v == nil || v.p == nil {
		return "0"
	}
	return strconv.Itoa(*v.p)
}

func (v *wholeValue) Get() any { return *v.p }

func (v *wholeValue) probe() func() {
	old := *v.p
	*v.p = math.MinInt
	return func() { *v.p = old }
}

// seedValue is a seed's flag: a whole number from 0 (sim.ParseWhole),
// exact above 2^53 when written in digits.
type seedValue struct{ p *uint64 }

func (v *seedValue) Set(s string) error {
	x, err := sim.ParseWhole(s)
	switch {
	case errors.Is(err, strconv.ErrRange), err == nil && x >= 1<<64:
		return errRange
	case err != nil, x < 0:
		return errParse // parseError calls a negative seed too small
	}
	if u, err := strconv.ParseUint(strings.TrimSpace(s), 10, 64); err == nil {
		*v.p = u
	} else {
		*v.p = uint64(x)
	}
	return nil
}

func (v *seedValue) String() string {
	if v == nil || v.p == nil {
		return "0"
	}
	return strconv.FormatUint(*v.p, 10)
}

func (v *seedValue) Get() any { return *v.p }

func (v *seedValue) probe() func() {
	old := *v.p
	*v.p = math.MaxUint64
	return func() { *v.p = old }
}

// numberVar defines a number flag, as flag.Float64Var does.
func numberVar(fs *flag.FlagSet, p *float64, name string, value float64, usage string) {
	*p = value
	fs.Var(&numberValue{p: p}, name, usage)
}

// shareVar defines a share's flag, which takes "5%" as well as 0.05.
func shareVar(fs *flag.FlagSet, p *float64, name string, value float64, usage string) {
	*p = value
	fs.Var(&numberValue{p: p, share: true}, name, usage)
}

// wholeVar defines a whole-number flag, as flag.IntVar does.
func wholeVar(fs *flag.FlagSet, p *int, name string, value int, usage string) {
	*p = value
	fs.Var(&wholeValue{p}, name, usage)
}

// typeName is a number flag's type as --help writes it: "int", "float" or
// "uint", as flag.PrintDefaults names the flag package's own; a table's
// "FILE", and --hops' "HOPS"; "" for another flag.
func typeName(v flag.Value) string {
	switch t := v.(type) {
	case *wholeValue:
		return "int"
	case *numberValue:
		return "float"
	case *seedValue:
		return "uint"
	case *tableValue:
		if t.key == "hops" {
			return "HOPS"
		}
		return "FILE"
	}
	return ""
}
