//go:build !js

package browser

import (
	"context"
	"encoding/json"
	"sort"
	"sync"

	"github.com/chromedp/cdproto/cdp"
	jsonv2 "github.com/chromedp/cdproto/cdp/jsonv2"
	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/cdproto/tracing"
	"github.com/chromedp/chromedp"
)

// A trace of the page's main thread, through Chromium's tracing (the
// "toplevel" category's RunTask events, as DevTools' performance panel
// shows them): every task the renderer's main thread ran, with its wall
// time and the CPU time the thread had in it. The Long Tasks API gives
// only the wall time, which on a loaded machine counts the time the
// thread waited for a core; the CPU time says how much work the task was.

// mainTask is one task of the page's main thread, in milliseconds.
type mainTask struct {
	StartMS float64 // from the trace's clock (microseconds / 1000)
	WallMS  float64
	CPUMS   float64
}

// traceLog gathers a tab's trace events as they arrive (tab.listen), in
// the tab's event loop: it only appends.
type traceLog struct {
	mu     sync.Mutex
	events []traceEvent
	done   chan struct{}
}

// traceEvent is the part of a Chromium trace event read here.
type traceEvent struct {
	Name string  `json:"name"`
	Cat  string  `json:"cat"`
	Ph   string  `json:"ph"`
	TS   float64 `json:"ts"`   // µs
	Dur  float64 `json:"dur"`  // µs, wall
	TDur float64 `json:"tdur"` // µs, the thread's CPU time
	PID  int     `json:"pid"`
	TID  int     `json:"tid"`
	Args struct {
		Name string `json:"name"` // a thread_name event's
	} `json:"args"`
}

func (l *traceLog) add(values []jsonv2.Value) {
	l.mu.Lock()
	defer l.mu.Unlock()
	for _, v := range values {
		var e traceEvent
		if json.Unmarshal([]byte(v), &e) == nil {
			l.events = append(l.events, e)
		}
	}
}

func (l *traceLog) complete() {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.done != nil {
		close(l.done)
		l.done = nil
	}
}

// startTrace starts tracing the tab's tasks.
func startTrace(tb *tab) {
	tb.tb.Helper()
	tb.trace.mu.Lock()
	tb.trace.events, tb.trace.done = nil, make(chan struct{})
	tb.trace.mu.Unlock()
	tb.do("starting a trace", chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
		_, err := cdp.Call(ctx, tg, tracing.Start, tracing.StartParams{
			TransferMode: tracing.StartTransferModeReportEvents,
			TraceConfig:  &tracing.TraceConfig{IncludedCategories: []string{"toplevel", "__metadata"}},
		})
		return err
	}))
}

// stopTrace ends the trace and returns the main thread's tasks of the
// page's renderer, in order.
func stopTrace(tb *tab) []mainTask {
	tb.tb.Helper()
	tb.trace.mu.Lock()
	done := tb.trace.done
	tb.trace.mu.Unlock()
	tb.do("ending the trace", chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
		_, err := cdp.Call(ctx, tg, tracing.End, cdp.Empty{})
		return err
	}))
	select {
	case <-done:
	case <-tb.ctx.Done():
		tb.tb.Fatal("the trace did not complete")
	}
	tb.trace.mu.Lock()
	defer tb.trace.mu.Unlock()
	type thread struct{ pid, tid int }
	mains := map[thread]bool{}
	for _, e := range tb.trace.events {
		if e.Ph == "M" && e.Name == "thread_name" && e.Args.Name == "CrRendererMain" {
			mains[thread{e.PID, e.TID}] = true
		}
	}
	var out []mainTask
	for _, e := range tb.trace.events {
		if e.Ph == "X" && (e.Name == "RunTask" || e.Name == "ThreadControllerImpl::RunTask") && mains[thread{e.PID, e.TID}] {
			out = append(out, mainTask{StartMS: e.TS / 1000, WallMS: e.Dur / 1000, CPUMS: e.TDur / 1000})
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].StartMS < out[j].StartMS })
	return out
}

// throttleCPU slows the tab's CPU by rate (1: no throttling), as
// DevTools' CPU throttling does.
func throttleCPU(tb *tab, rate float64) {
	tb.tb.Helper()
	tb.do("throttling the CPU", chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
		_, err := cdp.Call(ctx, tg, emulation.SetCPUThrottlingRate, emulation.SetCPUThrottlingRateParams{Rate: rate})
		return err
	}))
}
