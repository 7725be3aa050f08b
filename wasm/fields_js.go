//go:build js && wasm

package main

import (
	"strconv"
	"strings"

	"github.com/shedsim/shedsim/wasm/adapter"
	"github.com/shedsim/shedsim/wasm/markup"
)

// This file holds the forms' fields: a labelled input or menu with its
// message, and the marking of what is wrong.

// field is a rendered input: its element and its message.
type field struct {
	spec  markup.FieldSpec
	input el
	msg   el
	hint  el // nil unless the field has one
	box   el
	// marked is the message mark last showed, once it has: marking a field
	// again with the same one changes nothing, and costs no DOM calls
	// (every recompute marks every field, some 45 of them).
	marked *string
}

// formField renders a labelled field with its message (WriteField): a
// menu for a key with choices, else a text input, with a hint when
// withHint.
func (w *widget) formField(s markup.FieldSpec, val string, withHint bool) *field {
	var m markup.Markup
	markup.WriteField(&m, w.prefix, s, val, withHint, "")
	return adoptField(s, fromMarkup(&m))
}

// adoptField is the field WriteField wrote for s, drawn: box is its
// <div class="field">.
func adoptField(s markup.FieldSpec, box el) *field {
	return &field{spec: s, box: box, input: query(box, "input, select, textarea"), msg: query(box, ".field-msg"), hint: query(box, ".field-hint")}
}

// query is e.querySelector(sel), or nil.
func query(e el, sel string) el { return wrap(e.Underlying().Call("querySelector", sel)) }

// keepChoice sets a field to v. A menu (a <select>) cannot show a value
// that is none of its options, such as a link's policy=nope: it gets an
// option of its own, marked, so that the menu shows what the link said
// beside the field's error instead of a blank; the next setValues takes it
// away again.
func keepChoice(input el, v string) {
	u := input.Underlying()
	if u.Get("tagName").String() != "SELECT" {
		setValue(input, v)
		return
	}
	if old := u.Call("querySelector", "option[data-not-a-choice]"); !old.IsNull() {
		old.Call("remove")
	}
	setValue(input, v)
	if u.Get("value").String() != v {
		add(input, h("option", "value", v, "data-not-a-choice", "", v+" (not a choice)"))
		setValue(input, v)
	}
}

// describe sets aria-describedby to the hint and, when invalid, the
// message.
func (f *field) describe(invalid bool) {
	var ids []string
	if f.hint != nil {
		ids = append(ids, f.hint.ID())
	}
	if invalid {
		ids = append(ids, f.msg.ID())
	}
	if len(ids) == 0 {
		f.input.RemoveAttribute("aria-describedby")
	} else {
		f.input.SetAttribute("aria-describedby", strings.Join(ids, " "))
	}
}

// mark shows msg as the field's problem, or clears it when msg is "". It
// never touches the value the person typed.
func (f *field) mark(msg string) {
	if f.marked != nil && *f.marked == msg {
		return
	}
	f.marked = &msg
	if msg == "" {
		f.input.RemoveAttribute("aria-invalid")
		f.box.Class().Remove("invalid")
		f.msg.SetTextContent("")
		setHidden(f.msg, true)
		f.describe(false)
		return
	}
	f.input.SetAttribute("aria-invalid", "true")
	f.box.Class().Add("invalid")
	f.msg.SetTextContent(msg)
	setHidden(f.msg, false)
	f.describe(true)
	// A field inside a closed <details> would hide its own error.
	if d := closest(f.box, "details"); d != nil {
		d.Underlying().Set("open", true)
	}
}

// markAll marks each field with its message in errs and clears the rest;
// it returns the messages that belong to no field here, as "field: msg".
func markAll(fields []*field, errs []adapter.FieldMsg) []string {
	var rest []string
	for _, f := range fields {
		msg := ""
		for _, e := range errs {
			if e.Field == f.spec.Key {
				msg = e.Msg
				break
			}
		}
		f.mark(msg)
	}
	for _, e := range errs {
		found := false
		for _, f := range fields {
			if f.spec.Key == e.Field {
				found = true
			}
		}
		if !found {
			if e.Field == "" {
				rest = append(rest, e.Msg)
			} else {
				rest = append(rest, e.Field+": "+e.Msg)
			}
		}
	}
	return rest
}

// firstProblem is the first field's error, by its label, and how many more
// fields are marked, for the status line.
func firstProblem(fields []*field, errs []adapter.FieldMsg) string {
	if len(errs) == 0 {
		return ""
	}
	e := errs[0]
	first := e.Field + ": " + e.Msg
	if e.Field == "" {
		first = e.Msg
	}
	for _, f := range fields {
		if f.spec.Key == e.Field {
			first = f.spec.Label + ": " + e.Msg
		}
	}
	n := 0 // other fields of this form that are marked
	for _, other := range errs[1:] {
		for _, f := range fields {
			if f.spec.Key == other.Field && other.Field != e.Field {
				n++
				break
			}
		}
	}
	switch n {
	case 0:
		return first
	case 1:
		return first + " (and 1 more field is marked)"
	default:
		return first + " (and " + strconv.Itoa(n) + " more fields are marked)"
	}
}
