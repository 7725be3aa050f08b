package markup

import "strings"

// Markup writes HTML (or SVG inside HTML) as text: the simulator page's
// form and results (bars.go, chart.go, form.go). Built element by element,
// each element and attribute is a call from Go into JavaScript, and a
// default run's chart and table were some 1,500 of them; as text, the page
// inserts them with one call (fromMarkup) and the browser's parser does
// the rest. Being plain Go, the same code runs natively too, and writes
// the default run into site/index.html (prerender.go), so that the page
// reads before its engine arrives. Every attribute value and text
// is escaped, so no input can become markup; tag and attribute names are
// written as given, and are the page's own constants.
type Markup struct{ b strings.Builder }

// open writes a start tag with attributes, as name, value pairs.
func (m *Markup) open(tag string, attrs ...string) {
	m.b.WriteByte('<')
	m.b.WriteString(tag)
	for i := 0; i+1 < len(attrs); i += 2 {
		m.b.WriteByte(' ')
		m.b.WriteString(attrs[i])
		m.b.WriteString(`="`)
		escapeTo(&m.b, attrs[i+1])
		m.b.WriteByte('"')
	}
	m.b.WriteByte('>')
}

// close writes an end tag.
func (m *Markup) close(tag string) {
	m.b.WriteString("</")
	m.b.WriteString(tag)
	m.b.WriteByte('>')
}

// Elem writes a whole element: its attributes as open takes them, and an
// odd string at the end as its text, as h does.
func (m *Markup) Elem(tag string, attrs ...string) {
	m.open(tag, attrs[:len(attrs)&^1]...)
	if len(attrs)%2 == 1 {
		escapeTo(&m.b, attrs[len(attrs)-1])
	}
	m.close(tag)
}

// tag writes tmpl with each % in it replaced by the next of vals, escaped:
// Markup whose names are constants, written with fewer arguments than
// open's name, value pairs.
func (m *Markup) tag(tmpl string, vals ...string) {
	for _, v := range vals {
		i := strings.IndexByte(tmpl, '%')
		m.b.WriteString(tmpl[:i])
		escapeTo(&m.b, v)
		tmpl = tmpl[i+1:]
	}
	m.b.WriteString(tmpl)
}

// Text writes s, escaped, as text.
func (m *Markup) Text(s string) { escapeTo(&m.b, s) }

// Raw writes html as it is: markup that this package wrote and escaped.
func (m *Markup) Raw(html string) { m.b.WriteString(html) }

func (m *Markup) String() string { return m.b.String() }

// escapeTo writes s with the five characters that can end a text or an
// attribute value written as entities.
func escapeTo(b *strings.Builder, s string) {
	last := 0
	for i := 0; i < len(s); i++ {
		var ent string
		switch s[i] {
		case '&':
			ent = "&amp;"
		case '<':
			ent = "&lt;"
		case '>':
			ent = "&gt;"
		case '"':
			ent = "&#34;"
		case '\'':
			ent = "&#39;"
		default:
			continue
		}
		b.WriteString(s[last:i])
		b.WriteString(ent)
		last = i + 1
	}
	b.WriteString(s[last:])
}
