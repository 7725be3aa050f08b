//go:build js && wasm

package main

import (
	"strconv"
	"syscall/js"

	"github.com/shedsim/shedsim/sim"
	"github.com/shedsim/shedsim/wasm/adapter"
	"github.com/shedsim/shedsim/wasm/markup"
)

// This file is the tables' fields (sim.Table) on the page: a file dropped
// on one is read into it, and each draws what it reads (its hint and its
// chart, markup/table.go) as it is typed, before the run.

// previewTables writes each table field's hint and chart for the form's
// values as they are now, whatever else in the form is wrong.
func (f *simForm) previewTables() {
	var c *sim.Config
	for _, fd := range f.fields {
		if fd.spec.Mode != markup.TableMode {
			continue
		}
		if c == nil {
			cfg, _ := adapter.ConfigFromStrings(sim.DefaultConfig(), f.values(), 1, adapter.SeedsKey)
			c = &cfg
		}
		if fd.hint != nil {
			fd.hint.SetTextContent(markup.TableHint(fd.spec.Key, *c))
		}
		box := query(fd.box, ".table-preview")
		if box == nil {
			continue
		}
		var m markup.Markup
		markup.WriteTablePreview(&m, fd.spec.Key, *c)
		box.Underlying().Set("innerHTML", m.String())
	}
	if c != nil {
		f.setAsideForTable(*c)
	}
}

// setAsideForTable makes the traffic's fields that c's rate table gives
// (its rates, and the sale's window where the table finds it: rule 2b)
// read-only while it is set, as the command line refuses them, so that
// nothing typed there is quietly ignored; the table's hint says why.
func (f *simForm) setAsideForTable(c sim.Config) {
	for _, key := range []string{"normal_rps", "sale_rps", "sale_start_s", "sale_s"} {
		fd := f.byKey[key]
		if fd == nil {
			continue
		}
		if c.Arrivals != "" && c.Unused([]string{key}, sim.Scope{}) != nil {
			fd.input.SetAttribute("readonly", "")
			fd.box.Class().Add("set-aside")
		} else {
			fd.input.RemoveAttribute("readonly")
			fd.box.Class().Remove("set-aside")
		}
	}
}

// dropTables lets a file be dropped on each table's field: one within
// sim.MaxTableBytes is read into it, as if pasted; a larger one is
// refused by its size before it is read, and what the field held is kept.
func (f *simForm) dropTables() {
	for _, fd := range f.fields {
		if fd.spec.Mode != markup.TableMode {
			continue
		}
		input := fd.input.Underlying()
		f.w.on(input, "dragover", func(ev js.Value) { ev.Call("preventDefault") })
		f.w.on(input, "drop", func(ev js.Value) {
			ev.Call("preventDefault")
			files := ev.Get("dataTransfer").Get("files")
			if files.Length() == 0 {
				return
			}
			file := files.Index(0)
			if n := file.Get("size").Int(); n > sim.MaxTableBytes {
				fd.mark(file.Get("name").String() + " is " + adapter.GroupDigits(strconv.Itoa(n)) + " bytes, over the " +
					adapter.GroupDigits(strconv.Itoa(sim.MaxTableBytes)) + " a table may have: export fewer rows (a coarser step)")
				return
			}
			var then js.Func
			then = js.FuncOf(func(_ js.Value, args []js.Value) any {
				then.Release()
				f.w.safely(func() {
					setValue(fd.input, args[0].String())
					input.Call("dispatchEvent", js.Global().Get("Event").New("input", map[string]any{"bubbles": true}))
				})
				return nil
			})
			file.Call("text").Call("then", then)
		})
	}
}
