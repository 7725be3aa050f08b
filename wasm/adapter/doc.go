// Package adapter is the page's logic, natively testable: pure functions,
// JSON in and JSON out, that the page's entry points (package main's
// main_js.go) hand to JavaScript. It reads a Config from the form, the
// address, a widget's attributes or a JS value, naming every problem by
// its key; answers the JS API (a view, a run, the lab, the planner, a
// sweep's setting); and writes the address and the CSV download. None of
// it touches the DOM, a clock or a global, and every answer given to
// JavaScript recovers from a panic and returns {"error": "..."} instead.
package adapter
