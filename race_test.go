//go:build race

package hashlanes

// raceEnabled: under the race detector sync.Pool drops a quarter of what is
// put back, so allocation counts of pooled paths mean nothing there;
// scripts/test runs the allocation tests without it.
const raceEnabled = true
