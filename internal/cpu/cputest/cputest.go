// Package cputest lets tests run a subtest per CPU level and skip the levels
// this machine lacks, unless HASHLANES_TEST_REQUIRE names them (a CI machine
// that must have AVX-512 sets HASHLANES_TEST_REQUIRE=avx512,avx2 so that a
// silent skip cannot hide an untested kernel).
package cputest

import (
	"os"
	"strings"
	"testing"

	"github.com/hashlanes/hashlanes/internal/cpu"
)

// Require skips t unless this CPU supports level l; when the level is listed
// in HASHLANES_TEST_REQUIRE the skip becomes a failure.
func Require(t testing.TB, l cpu.Level) {
	t.Helper()
	if cpu.Supports(l) {
		return
	}
	for _, name := range strings.Split(os.Getenv("HASHLANES_TEST_REQUIRE"), ",") {
		if strings.TrimSpace(name) == l.String() {
			t.Fatalf("HASHLANES_TEST_REQUIRE names %s, but this CPU supports only %s", l, cpu.Detected)
		}
	}
	t.Skipf("this CPU supports only %s", cpu.Detected)
}
