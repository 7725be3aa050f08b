//go:build js && wasm

package main

import (
	"strconv"
	"strings"

	"github.com/shedsim/shedsim/wasm/adapter"
	"github.com/shedsim/shedsim/wasm/markup"
)

// widgetControls reads a simulator widget's controls attribute: "none",
// "all" (every setting, in the page's order), or settings' names apart by
// spaces or commas, such as "retries sale_rps". Absent, kind "simulator"
// shows CompactFields, "full" (the whole simulator) all, and the other
// kinds ("compare", "chart") none. The
// problem, if any, names what is wrong; the names that are fine are kept.
func widgetControls(kind, attr string) (specs []markup.FieldSpec, problem string) {
	names := strings.FieldsFunc(attr, func(r rune) bool { return r == ' ' || r == ',' || r == '\t' || r == '\n' })
	if len(names) == 0 && kind == "full" {
		names = []string{"all"}
	}
	switch {
	case len(names) == 0 && kind == "simulator":
		return markup.CompactFields, ""
	case len(names) == 0, len(names) == 1 && names[0] == "none":
		return nil, ""
	case len(names) == 1 && names[0] == "all":
		for _, g := range markup.SimGroups {
			for _, s := range g.Fields {
				if s.Key != adapter.SeedsKey || kind != "chart" { // a chart draws one run
					specs = append(specs, s)
				}
			}
		}
		return specs, ""
	}
	var bad []string
	for _, n := range names {
		if _, ok := adapter.FieldByKey(n); !ok && (n != adapter.SeedsKey || kind == "chart") { // a chart draws one run
			bad = append(bad, strconv.Quote(n))
			continue
		}
		specs = append(specs, markup.SpecOf(n))
	}
	if len(bad) > 0 {
		problem = strings.Join(bad, ", ") + " is not a setting: use none, all, or settings' names such as \"retries sale_rps\""
	}
	return specs, problem
}

// hideControls applies the controls attribute of a widget whose form is
// all or nothing (the lab's, the planner's): "none" hides form, "all" or
// no attribute keeps it; anything else is returned as a problem.
func hideControls(form el, attr string) []string {
	switch strings.TrimSpace(attr) {
	case "", "all":
		return nil
	case "none":
		setHidden(form, true)
		return nil
	}
	return []string{"controls " + strconv.Quote(attr) + " is not one of this kind's: use all (the default) or none"}
}

// openLink is a widget's link to the site's page of its kind, with the
// widget's settings in its address, so that the reader can open the same
// run there.
type openLink struct {
	p, a el
	page string // the page's address, beside the loader (base)
}

func newOpenLink(w *widget, base, page, text string) *openLink {
	var m markup.Markup
	markup.WriteOpenLink(&m, w.id("open-full"), base+page, text)
	return adoptOpenLink(fromMarkup(&m), base+page)
}

// adoptOpenLink is the link WriteOpenLink wrote, p, to page.
func adoptOpenLink(p el, page string) *openLink {
	return &openLink{p: p, a: firstChild(p), page: page}
}

// to points the link at the page with query (EncodeQuery's, "" or
// "?...").
func (l *openLink) to(query string) { l.a.SetAttribute("href", l.page+query) }
