package report

import (
	"math"
	"strconv"
	"strings"

	"github.com/shedsim/shedsim/sim"
)

// Percent formats a share in [0, 1] as a percentage with one decimal: 0.084
// is "8.4%".
func Percent(share float64) string {
	return strconv.FormatFloat(math.Round(share*1000)/10, 'f', 1, 64) + "%"
}

// PercentOf is Percent for a share of n people (or orders): a share of
// nobody, n = 0, is "-", not "0.0%", which would read as everyone failing.
func PercentOf(share float64, n int) string {
	if n == 0 {
		return "-"
	}
	return Percent(share)
}

// WindowAnswered is a window's answered share, of its people who had
// settled by the end of the run: "-" when none had.
func WindowAnswered(w sim.Window) string { return PercentOf(w.AnsweredShare, w.People-w.Unfinished) }

// Count formats a whole number with thousands separators: 14309 is
// "14,309".
func Count(n int) string {
	s := strconv.Itoa(n)
	neg := strings.HasPrefix(s, "-")
	if neg {
		s = s[1:]
	}
	var b strings.Builder
	for i, r := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(r)
	}
	if neg {
		return "-" + b.String()
	}
	return b.String()
}

// Number formats x with at most the given decimals, dropping trailing zeros
// and adding thousands separators: 162.5, 100, 10.24, 1,024. A positive
// number too small for the decimals keeps two significant digits, 0.004 or
// 1e-05, so that a rate or a time that is there never prints as "0"; a
// negative one that rounds to zero prints "0".
func Number(x float64, decimals int) string {
	p := math.Pow10(decimals)
	if r := math.Round(x*p) / p; r == 0 && x > 0 {
		return strconv.FormatFloat(x, 'g', 2, 64)
	}
	x = math.Round(x*p)/p + 0 // + 0 turns -0 into 0
	s := strconv.FormatFloat(x, 'f', decimals, 64)
	if strings.Contains(s, ".") {
		s = strings.TrimRight(strings.TrimRight(s, "0"), ".")
	}
	whole, frac, _ := strings.Cut(s, ".")
	neg := strings.HasPrefix(whole, "-")
	if neg {
		whole = whole[1:]
	}
	if n, err := strconv.Atoi(whole); err == nil {
		whole = Count(n)
	}
	if neg {
		whole = "-" + whole
	}
	if frac != "" {
		return whole + "." + frac
	}
	return whole
}

// apart formats a and b as Number does, with as many more decimals, up to
// six more, as two different numbers need to print differently: a load of
// 0.27/s against a capacity of 0.2704/s, not "0.27/s against 0.27/s".
func apart(a, b float64, decimals int) (string, string) {
	sa, sb := Number(a, decimals), Number(b, decimals)
	for d := decimals + 1; sa == sb && a != b && d <= decimals+6; d++ {
		sa, sb = Number(a, d), Number(b, d)
	}
	return sa, sb
}

// saleSpan is when the sale's people start and stop arriving, "60 s" and
// "120 s", apart: a sale of 0.02 s from 357 s is "357 s" to "357.02 s". With
// no sale and an incident, it is the incidents' (sim.Config.PeopleStartS).
func saleSpan(c sim.Config) (string, string) {
	from, to := apart(c.PeopleStartS(), c.PeopleEndS(), 1)
	return from + " s", to + " s"
}

// AttemptsPerPerson is a mean count of attempts per person, in words: "1
// attempt per person", "3.79 attempts per person".
func AttemptsPerPerson(n float64) string {
	if s := Number(n, 2); s != "1" {
		return s + " attempts per person"
	}
	return "1 attempt per person"
}

// Millis formats a duration in milliseconds for people: "98 ms" under 10
// seconds' worth of whole milliseconds, "2.5 s" from 10 s up; "-" for nil.
func Millis(ms *float64) string {
	if ms == nil {
		return "-"
	}
	return Duration(*ms)
}

// Duration formats milliseconds for people: "5 ms", "98 ms", "1,970 ms",
// whole seconds as "2 s", and from 10 s up "10.2 s". It rounds before it
// chooses the unit, so 999.6 ms is "1 s", not "1,000 ms".
func Duration(ms float64) string {
	r := math.Round(ms)
	switch {
	case ms < 10:
		return Number(ms, 1) + " ms"
	case r >= 10000:
		return Number(ms/1000, 1) + " s"
	case r >= 1000 && math.Mod(r, 1000) == 0:
		return Number(r/1000, 0) + " s"
	}
	return Number(r, 0) + " ms"
}

// Seconds formats a duration in seconds: "90 s", "10.2 s".
func Seconds(s float64) string { return Number(s, 1) + " s" }

// fill returns template with each "%s" replaced by the next of args, in
// order: the one verb these sentences need. It stands in for fmt.Sprintf,
// which with reflect would add 165 KB to the page's gzipped WebAssembly (of
// a 1 MB budget). A count of args that does not match the template's is a
// bug, and panics.
func fill(template string, args ...string) string {
	var b strings.Builder
	for _, a := range args {
		i := strings.Index(template, "%s")
		if i < 0 {
			panic("report: more arguments than %s in a template: " + template)
		}
		b.WriteString(template[:i])
		b.WriteString(a)
		template = template[i+2:]
	}
	if strings.Contains(template, "%s") {
		panic("report: fewer arguments than %s in a template: " + template)
	}
	b.WriteString(template)
	return b.String()
}

// PolicyNoun is a policy as a sentence names it: "the bounded queue",
// "skipping the abandoned", "priority for orders".
func PolicyNoun(p sim.Policy) string { return p.Noun() }

// capital returns s with its first letter in upper case, to start a
// sentence.
func capital(s string) string {
	if s == "" || s[0] < 'a' || s[0] > 'z' {
		return s
	}
	return string(s[0]-'a'+'A') + s[1:]
}

// InSentence returns a title as it reads inside a sentence, its first letter
// in lower case: "Bounded queue" becomes "the bounded queue" after "the ".
func InSentence(title string) string {
	if title == "" || title[0] < 'A' || title[0] > 'Z' {
		return title
	}
	return string(title[0]-'A'+'a') + title[1:]
}
