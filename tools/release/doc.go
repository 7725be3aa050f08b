// Package release holds the test of make release's binaries (build/release):
// make test-release builds them, and the widget's package whose version
// they must carry, then runs its test.
package release
