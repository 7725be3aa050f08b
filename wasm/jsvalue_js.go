//go:build js && wasm

package main

import (
	"strings"
	"syscall/js"

	"github.com/shedsim/shedsim/wasm/adapter"
)

// jsVal is a js.Value as ReadJS reads it.
type jsVal struct{ v js.Value }

var (
	objectToString = js.Global().Get("Object").Get("prototype").Get("toString")
	objectKeys     = js.Global().Get("Object").Get("keys")
	objectOf       = js.Global().Get("Object")
	reflectGet     = js.Global().Get("Reflect").Get("get")
	jsString       = js.Global().Get("String")
)

// Tag is Object.prototype.toString.call(v) without "[object " and "]".
// It is asked first, because js.Value.Type panics on a BigInt.
func (j jsVal) Tag() string {
	t := objectToString.Call("call", j.v).String()
	return strings.TrimSuffix(strings.TrimPrefix(t, "[object "), "]")
}

// prim is v, or a wrapper object's primitive (new Number(8) is 8).
func (j jsVal) prim() js.Value {
	if j.v.Type() == js.TypeObject {
		return j.v.Call("valueOf")
	}
	return j.v
}

func (j jsVal) Number() float64 {
	p := j.prim()
	if p.Type() == js.TypeBoolean {
		if p.Bool() {
			return 1
		}
		return 0
	}
	return p.Float()
}

// str is String(v) as a String object: js.Value's Length, Get and Call
// panic on a primitive string.
func (j jsVal) str() js.Value { return objectOf.Invoke(jsString.Invoke(j.v)) }

func (j jsVal) Length() int { return j.str().Length() }

func (j jsVal) Text(n int) string {
	s := j.str()
	if s.Length() > n {
		return s.Call("slice", 0, n).String()
	}
	return s.Call("toString").String()
}

func (j jsVal) Keys(most int) ([]adapter.JsValue, int) {
	ks := objectKeys.Invoke(j.v)
	n := ks.Length()
	if n > most {
		return nil, n
	}
	out := make([]adapter.JsValue, n)
	for i := range out {
		out[i] = jsVal{ks.Index(i)}
	}
	return out, n
}

// Get is Reflect.get(v, key): through Invoke, so that a getter that
// throws is a Go panic readJSValue recovers from, where Value.Get would let
// the exception through the Go stack.
func (j jsVal) Get(key string) adapter.JsValue { return jsVal{reflectGet.Invoke(j.v, key)} }
