// Package browser holds the page's tests in a real browser: they open the
// built site (site/*.html, under file:// and over http) in headless
// Chromium through the DevTools protocol and check what a person sees
// against what the engine computes natively. The embedding tests
// (embed_test.go) paste the README's snippets, read from the README, into
// test blogs served from another origin than the site, and keep a
// screenshot of each under the test's artifacts (go test -artifacts). It
// has no code of its own.
//
// Build the page first, then run them:
//
//	make site
//	go test -count=1 -run Browser ./tools/browser -v
//	go test -run '^$' -bench Browser ./tools/browser
//
// They need Chromium (apt-get install -y chromium); without it they fail
// rather than skip. -count=1 matters: the browser reads files that the test
// cache cannot see.
package browser
