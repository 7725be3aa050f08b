// Package markup writes the page's HTML (and SVG inside it) as text: the
// simulator's form and results frame, the bars and tables that compare
// the policies, the charts over time, and "Where it tips"' sweeps and
// maps. It runs natively, where the prerender writes site/index.html from
// it and tests read it, and in the page, whose DOM code (package main)
// puts it in place. What it draws comes from sim/report; what it reads
// from the form, from package adapter.
package markup
