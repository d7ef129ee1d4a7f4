package mcpserver_test

import "testing"

// heavy marks a test (or subtest) that checks whole graphs against brute force
// or adversarial budgets: its cost is computation the race detector slows 5 to
// 10 times and has nothing to find in (the concurrency it runs through is the
// same as the other tests' of this package, which stay under -race). Under
// -race it skips; `make test` runs this package a second time without -race,
// where it runs (CI runs make test).
func heavy(t *testing.T) {
	t.Helper()
	if raceDetector {
		t.Skip("SKIP under -race: a heavy brute-force check; make test runs it in its second, race-free pass over runtime/mcpserver")
	}
}
