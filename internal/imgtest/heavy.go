package imgtest

import "testing"

// Heavy marks a test (or subtest) that checks whole graphs or images against
// brute force, exhaustive mutation or adversarial budgets: its cost is
// single-threaded computation the race detector slows 5 to 10 times and has
// nothing to find in (the concurrency it runs through is the same as other
// tests', which stay under -race). Under -race it skips; `make test` runs the
// packages that have such tests a second time without -race, where they run
// (the Makefile's test target lists them; CI runs make test).
func Heavy(t testing.TB) {
	t.Helper()
	if raceDetector {
		t.Skip("SKIP under -race: a heavy brute-force check; make test runs it in its second, race-free pass")
	}
}
