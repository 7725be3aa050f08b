package markup

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestMarkupEscapes(t *testing.T) {
	var m Markup
	m.open("svg", "aria-label", `5 < 6 & "quoted" 'too'`, "class", "timeline")
	m.Elem("rect", "class", "sale", "x", "1.5")
	m.Elem("title", "<script>alert(1)</script>")
	m.close("svg")
	m.Elem("td", "")
	m.Elem("th", "scope", "row", "0 s to 10 s (sale)")
	assert.Equal(t,
		`<svg aria-label="5 &lt; 6 &amp; &#34;quoted&#34; &#39;too&#39;" class="timeline">`+
			`<rect class="sale" x="1.5"></rect><title>&lt;script&gt;alert(1)&lt;/script&gt;</title></svg>`+
			`<td></td><th scope="row">0 s to 10 s (sale)</th>`,
		m.String())
}

func TestMarkupTagEscapesItsValues(t *testing.T) {
	var m Markup
	m.tag(`<rect class="%" x="%"></rect><title>%</title>`, `a" onload="x`, "1.5", "<b>&</b>")
	assert.Equal(t, `<rect class="a&#34; onload=&#34;x" x="1.5"></rect><title>&lt;b&gt;&amp;&lt;/b&gt;</title>`, m.String(),
		"a value cannot end its attribute or become markup")
}
