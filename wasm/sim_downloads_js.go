//go:build js && wasm

package main

import (
	"syscall/js"

	"github.com/shedsim/shedsim/wasm/adapter"
)

// This file is the simulator's downloads: its results as CSV or JSON.

// download saves the current results as CSV or JSON; asked for before
// the advice is in, it waits for it, which belongs in the file.
func (w *simWidget) download(format string) {
	if w.view == nil {
		return
	}
	if !w.later.advised {
		w.later.download = format
		return
	}
	w.later.download = ""
	name := "shedsim-" + w.view.Config.Policy.String()
	var text, typ string
	if format == "csv" {
		text, typ, name = adapter.ViewCSV(*w.view), "text/csv", name+".csv"
	} else {
		// Indented by JavaScript: marshal writes compact JSON only.
		JSON := js.Global().Get("JSON")
		text = JSON.Call("stringify", JSON.Call("parse", adapter.MustJSON(w.view)), nil, 2).String()
		text, typ, name = text+"\n", "application/json", name+".json"
	}
	saveFile(name, typ, text)
}

// saveFile offers text as a download through a Blob and a[download]
// (dom/v2 has no Blob, so this is syscall/js).
func saveFile(name, typ, text string) {
	blob := js.Global().Get("Blob").New([]any{text}, map[string]any{"type": typ})
	u := js.Global().Get("URL").Call("createObjectURL", blob)
	a := h("a", "href", u.String(), "download", name, "hidden", "")
	add(wrap(docJS.Get("body")), a)
	a.Click()
	a.Remove()
	// The URL is revoked a second later, when the download has started;
	// the one-shot function releases itself.
	var revoke js.Func
	revoke = js.FuncOf(func(js.Value, []js.Value) any {
		js.Global().Get("URL").Call("revokeObjectURL", u)
		revoke.Release()
		return nil
	})
	js.Global().Call("setTimeout", revoke, 1000)
}
