//go:build js && wasm

package main

import (
	"errors"
	"reflect"
	"strings"
	"syscall/js"

	"github.com/shedsim/shedsim/sim"
)

// runs are a widget's runs of the engine in the page's workers
// (site/workers.js, which the loader starts with the compiled module): the
// page's main thread only sends Configs and draws the Results, so no input,
// however big, holds up typing or a frame. Each run's answer comes back in
// a task of its own.
type runs struct {
	pool js.Value
	// pending are the runs sent and not answered, by the pool's id, with
	// the function that takes the answer.
	pending map[int]js.Func
}

// start sends c to the next free worker; done gets its Result, through w's
// safely, unless the run is cancelled first. Unless whole, the Result
// comes without its Windows (only a chart over time needs them): a
// comparison's run is then a few hundred bytes of JSON to decode here;
// whole, the Windows come as float64s beside it (runParts).
func (rs *runs) start(w *widget, c sim.Config, whole bool, done func(sim.Result)) {
	if rs.pending == nil {
		rs.pending = map[int]js.Func{}
		rs.pool = js.Global().Get("shedsimWorkers")
		if rs.pool.IsUndefined() {
			panic("the loader did not start the engine's workers (site/workers.js)")
		}
	}
	id := 0
	var answer js.Func
	answer = js.FuncOf(func(_ js.Value, args []js.Value) any {
		answer.Release()
		delete(rs.pending, id)
		w.safely(func() {
			r, err := resultOf(js.Global().Get("JSON").Call("parse", args[0]))
			if err != nil {
				panic(err) // the page validated c: a refusal is a bug
			}
			if whole {
				b := make([]byte, args[1].Get("length").Int())
				js.CopyBytesToGo(b, args[1])
				if err = readParts(&r, b); err != nil {
					panic(err)
				}
			}
			done(r)
		})
		return nil
	})
	id = rs.pool.Call("run", workerConfig(c), whole, answer).Int()
	rs.pending[id] = answer
}

// cancel forgets every run not answered yet: the pool drops those queued
// and stops the workers busy with the others.
func (rs *runs) cancel() {
	for id, answer := range rs.pending {
		rs.pool.Call("cancel", id)
		answer.Release()
		delete(rs.pending, id)
	}
}

// resultOf reads a worker's answer, parsed by JSON.parse: a sim.Result
// (its Windows apart, see readWindows), or {"error"} for a Config that
// should not have reached the worker, a bug.
func resultOf(v js.Value) (sim.Result, error) {
	if e := v.Get("error"); e.Type() == js.TypeString {
		return sim.Result{}, errors.New("a worker failed: " + e.String())
	}
	var r sim.Result
	if err := fromJS(v, reflect.ValueOf(&r).Elem()); err != nil {
		return sim.Result{}, errors.New("a worker's Result does not read: " + err.Error())
	}
	return r, nil
}

// textUnmarshaler is encoding.TextUnmarshaler (Policy, Client and the
// shapes are written as their keys).
var textUnmarshaler = reflect.TypeFor[interface{ UnmarshalText([]byte) error }]()

// fromJS sets dst from v, a value JSON.parse made of what json.Marshal
// wrote for dst's type: objects by their json tags, null for a nil
// pointer or slice. It reads what the page's own types hold (structs,
// pointers, slices, strings, numbers, booleans, text keys), and is what
// the page uses instead of json.Unmarshal into sim.Result, which would
// add 170 KB to the module for the same work.
func fromJS(v js.Value, dst reflect.Value) error {
	if v.IsNull() || v.IsUndefined() {
		dst.SetZero()
		return nil
	}
	if dst.CanAddr() && dst.Addr().Type().Implements(textUnmarshaler) {
		return dst.Addr().Interface().(interface{ UnmarshalText([]byte) error }).UnmarshalText([]byte(v.String()))
	}
	switch dst.Kind() {
	case reflect.Pointer:
		p := reflect.New(dst.Type().Elem())
		if err := fromJS(v, p.Elem()); err != nil {
			return err
		}
		dst.Set(p)
	case reflect.Struct:
		t := dst.Type()
		for i := range t.NumField() {
			name, _, _ := strings.Cut(t.Field(i).Tag.Get("json"), ",")
			if name == "-" || !t.Field(i).IsExported() {
				continue
			}
			if name == "" {
				name = t.Field(i).Name
			}
			if err := fromJS(v.Get(name), dst.Field(i)); err != nil {
				return errors.New(name + ": " + err.Error())
			}
		}
	case reflect.Slice:
		n := v.Length()
		s := reflect.MakeSlice(dst.Type(), n, n)
		for i := range n {
			if err := fromJS(v.Index(i), s.Index(i)); err != nil {
				return err
			}
		}
		dst.Set(s)
	case reflect.String:
		dst.SetString(v.String())
	case reflect.Bool:
		dst.SetBool(v.Bool())
	case reflect.Float64, reflect.Float32:
		dst.SetFloat(v.Float())
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		dst.SetInt(int64(v.Float()))
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		dst.SetUint(uint64(v.Float()))
	default:
		return errors.New("a " + dst.Kind().String() + " is not read from JavaScript")
	}
	return nil
}
