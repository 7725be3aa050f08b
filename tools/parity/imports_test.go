package main

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"
)

// portableMath lists the functions and constants of package math that the
// engine (sim and its subpackages) may use, each with why it returns the
// same bits on every platform: the result is exact (a bit operation, or a
// value that is always representable), or IEEE 754 requires it correctly
// rounded, or it is one rounded operation in pure Go. Everything else in
// package math is out: see platformMath. A name on neither list fails the
// test until someone reviews it and adds it to one.
var portableMath = map[string]string{
	// Bits and classes.
	"Abs":             "clears the sign bit: exact",
	"Copysign":        "copies a sign bit: exact",
	"Signbit":         "reads the sign bit: exact",
	"Float64bits":     "reinterprets bits: exact",
	"Float64frombits": "reinterprets bits: exact",
	"Float32bits":     "reinterprets bits: exact",
	"Float32frombits": "reinterprets bits: exact",
	"IsNaN":           "classifies: exact",
	"IsInf":           "classifies: exact",
	"Inf":             "a constant bit pattern: exact",
	"NaN":             "a constant bit pattern: exact",
	"Nextafter":       "steps the bits by one: exact",
	// Rounding to integers: the result is always representable, so any
	// correct implementation, assembly or not, returns the same bits.
	"Floor":       "an integer: exact",
	"Ceil":        "an integer: exact",
	"Trunc":       "an integer: exact",
	"Round":       "an integer: exact",
	"RoundToEven": "an integer: exact",
	"Modf":        "an integer and the exact rest",
	// Exact remainders and scaling.
	"Mod":       "fmod's result is always representable: exact",
	"Remainder": "the IEEE remainder is always representable: exact",
	"Frexp":     "splits the exponent off: exact",
	"Ldexp":     "scales by a power of two: exact, or one IEEE rounding to a subnormal",
	"Logb":      "reads the exponent: exact",
	"Ilogb":     "reads the exponent: exact",
	"Pow10":     "pure Go: a table entry, or a product of two, rounded once; exact for 0 <= n <= 22",
	// Correctly rounded by IEEE 754 on every platform.
	"Sqrt": "IEEE 754 requires it correctly rounded; every Go port is",
	"FMA":  "x*y + z with one rounding by definition, in hardware or software",
	"Max":  "selects an operand: exact",
	"Min":  "selects an operand: exact",
	"Dim":  "one subtraction or zero: one IEEE rounding",
	// Constants are computed exactly by the compiler.
	"E": "constant", "Pi": "constant", "Phi": "constant",
	"Sqrt2": "constant", "SqrtE": "constant", "SqrtPi": "constant", "SqrtPhi": "constant",
	"Ln2": "constant", "Log2E": "constant", "Ln10": "constant", "Log10E": "constant",
	"MaxFloat32": "constant", "SmallestNonzeroFloat32": "constant",
	"MaxFloat64": "constant", "SmallestNonzeroFloat64": "constant",
	"MaxInt": "constant", "MinInt": "constant", "MaxUint": "constant",
	"MaxInt8": "constant", "MinInt8": "constant", "MaxUint8": "constant",
	"MaxInt16": "constant", "MinInt16": "constant", "MaxUint16": "constant",
	"MaxInt32": "constant", "MinInt32": "constant", "MaxUint32": "constant",
	"MaxInt64": "constant", "MinInt64": "constant", "MaxUint64": "constant",
}

// platformMath lists the functions of package math the engine must not
// call, because they can return different last bits on different
// platforms, and so break "native, Node and every browser agree to the
// byte" (DESIGN.md):
//
//   - Several have assembly on some architectures (Exp and Log on amd64,
//     Exp on arm64, most of them on s390x) and pure Go elsewhere (wasm),
//     and the two are not bit-identical.
//   - The pure-Go versions are polynomials full of a*b + c, which the
//     compiler fuses into multiply-adds on arm64 (and some other
//     architectures) but not on amd64 or wasm, rounding once instead of
//     twice.
//   - None is correctly rounded, so no two implementations are bound to
//     agree.
//
// Use sim/internal/portable (Exp, Log) instead, or add a portable version
// there.
var platformMath = map[string]bool{
	"Exp": true, "Exp2": true, "Expm1": true,
	"Log": true, "Log1p": true, "Log2": true, "Log10": true,
	"Pow": true, "Cbrt": true, "Hypot": true,
	"Sin": true, "Cos": true, "Tan": true, "Sincos": true,
	"Asin": true, "Acos": true, "Atan": true, "Atan2": true,
	"Sinh": true, "Cosh": true, "Tanh": true,
	"Asinh": true, "Acosh": true, "Atanh": true,
	"Erf": true, "Erfc": true, "Erfinv": true, "Erfcinv": true,
	"Gamma": true, "Lgamma": true,
	"J0": true, "J1": true, "Jn": true, "Y0": true, "Y1": true, "Yn": true,
}

// platformPackages are imports the engine must not have, and why.
var platformPackages = map[string]string{
	"math/rand":    "the engine draws from its own splitmix64 streams, never math/rand (DESIGN.md)",
	"math/rand/v2": "the engine draws from its own splitmix64 streams, never math/rand/v2 (DESIGN.md)",
	"math/cmplx":   "its functions are built on math's platform-dependent ones (Exp, Log, Sin, ...)",
}

// TestEngineUsesPortableMath parses every non-test Go file in sim and its
// subpackages, whatever its build constraints, and fails on a use of a
// function of package math outside portableMath, on an import in
// platformPackages, and on assembly files.
func TestEngineUsesPortableMath(t *testing.T) {
	root := moduleRoot(t)
	simDir := filepath.Join(root, "sim")
	var problems []string
	files := 0
	err := filepath.WalkDir(simDir, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		name := d.Name()
		if d.IsDir() {
			if path != simDir && (name == "testdata" || strings.HasPrefix(name, ".") || strings.HasPrefix(name, "_")) {
				return filepath.SkipDir
			}
			return nil
		}
		rel, _ := filepath.Rel(root, path)
		switch {
		case strings.HasSuffix(name, ".s"):
			problems = append(problems, rel+": assembly differs by platform; write the engine in Go")
		case strings.HasSuffix(name, ".go") && !strings.HasSuffix(name, "_test.go"):
			files++
			ps, err := checkEngineFile(rel, path)
			if err != nil {
				return err
			}
			problems = append(problems, ps...)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if files == 0 {
		t.Fatalf("found no Go files under %s", simDir)
	}
	for _, p := range problems {
		t.Error(p)
	}
}

// checkEngineFile returns the problems in one file, each "file:line:col:
// what and why"; rel is the name to report.
func checkEngineFile(rel, path string) ([]string, error) {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, path, nil, parser.SkipObjectResolution)
	if err != nil {
		return nil, err
	}
	var problems []string
	report := func(pos token.Pos, format string, args ...any) {
		p := fset.Position(pos)
		problems = append(problems, fmt.Sprintf("%s:%d:%d: %s", rel, p.Line, p.Column, fmt.Sprintf(format, args...)))
	}
	mathNames := map[string]bool{} // what package math is called in this file
	for _, spec := range f.Imports {
		importPath, err := strconv.Unquote(spec.Path.Value)
		if err != nil {
			return nil, err
		}
		if why, ok := platformPackages[importPath]; ok {
			report(spec.Pos(), "imports %s: %s", importPath, why)
			continue
		}
		if importPath != "math" {
			continue
		}
		switch {
		case spec.Name == nil:
			mathNames["math"] = true
		case spec.Name.Name == "_":
		case spec.Name.Name == ".":
			report(spec.Pos(), `imports "math" with a dot, which hides which functions it uses: import it by name`)
		default:
			mathNames[spec.Name.Name] = true
		}
	}
	if len(mathNames) == 0 {
		return problems, nil
	}
	ast.Inspect(f, func(n ast.Node) bool {
		sel, ok := n.(*ast.SelectorExpr)
		if !ok {
			return true
		}
		x, ok := sel.X.(*ast.Ident)
		if !ok || !mathNames[x.Name] {
			return true
		}
		name := sel.Sel.Name
		switch {
		case portableMath[name] != "":
		case platformMath[name]:
			report(sel.Pos(), "%s.%s can differ in the last bits between platforms (amd64, arm64, wasm): use sim/internal/portable, or add a portable version there", x.Name, name)
		default:
			report(sel.Pos(), "%s.%s is not on the reviewed list: if it returns the same bits on every platform, add it to portableMath in %s with the reason; otherwise to platformMath",
				x.Name, name, "tools/parity/imports_test.go")
		}
		return true
	})
	return problems, nil
}

// moduleRoot returns the directory holding go.mod, above the test's own.
func moduleRoot(t *testing.T) string {
	t.Helper()
	dir, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			t.Fatal("no go.mod above the test's directory")
		}
		dir = parent
	}
}

// TestCheckEngineFile pins what checkEngineFile flags and what it allows.
func TestCheckEngineFile(t *testing.T) {
	tests := []struct {
		reason string
		src    string
		want   []string // substrings of the problems, in order
	}{
		{
			reason: "exact functions and constants are allowed",
			src: `package p
import "math"
var a = math.Round(1.5) + math.Floor(2) + math.Sqrt(2) + math.Abs(-1) + math.Mod(5, 3)
var b = math.MaxInt64
var c = math.IsNaN(math.NaN()) || math.IsInf(math.Inf(1), 0)
`,
		},
		{
			reason: "Exp and Log differ between amd64 assembly and wasm's pure Go",
			src: `package p
import "math"
var a = math.Exp(1) + math.Log(2)
`,
			want: []string{"3:9: math.Exp can differ", "3:23: math.Log can differ"},
		},
		{
			reason: "a renamed import is followed",
			src: `package p
import m "math"
var a = m.Pow(2, 3)
`,
			want: []string{"m.Pow can differ"},
		},
		{
			reason: "a dot import hides the calls",
			src: `package p
import . "math"
var a = Sin(1)
`,
			want: []string{"with a dot"},
		},
		{
			reason: "math/rand and math/rand/v2 are forbidden, even as a blank import",
			src: `package p
import (
	_ "math/rand"
	"math/rand/v2"
)
var a = rand.N(10)
`,
			want: []string{"imports math/rand:", "imports math/rand/v2:"},
		},
		{
			reason: "a function on neither list needs a review",
			src: `package p
import "math"
var a = math.NewFunction(1)
`,
			want: []string{"math.NewFunction is not on the reviewed list"},
		},
		{
			reason: "a selector on something else named like math is not package math",
			src: `package p
import m "math"
var math struct{ Exp float64 }
var a = math.Exp + m.Abs(-1)
`,
		},
	}
	for _, tt := range tests {
		path := filepath.Join(t.TempDir(), "x.go")
		if err := os.WriteFile(path, []byte(tt.src), 0o644); err != nil {
			t.Fatal(err)
		}
		got, err := checkEngineFile("x.go", path)
		if err != nil {
			t.Fatalf("%s: %v", tt.reason, err)
		}
		ok := len(got) == len(tt.want)
		for i := 0; ok && i < len(got); i++ {
			ok = strings.Contains(got[i], tt.want[i])
		}
		if !ok {
			t.Errorf("%s:\n got %q\nwant problems containing %q", tt.reason, got, tt.want)
		}
	}
}

// TestMathListsDisjoint keeps a name from being both allowed and
// forbidden.
func TestMathListsDisjoint(t *testing.T) {
	var both []string
	for name := range platformMath {
		if portableMath[name] != "" {
			both = append(both, name)
		}
	}
	sort.Strings(both)
	if len(both) > 0 {
		t.Errorf("on both portableMath and platformMath: %v", both)
	}
}
