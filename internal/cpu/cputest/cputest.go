// Package cputest lets tests run a subtest per CPU level and skip the levels
// this machine lacks, unless HASHLANES_TEST_REQUIRE names them (a CI machine
// that must have AVX-512 sets HASHLANES_TEST_REQUIRE=avx512,avx2 so that a
// silent skip cannot hide an untested kernel).
package cputest

import (
	"os"
	"runtime"
	"strings"
	"testing"

	"github.com/hashlanes/hashlanes/internal/cpu"
)

// RequireFeatures skips t unless this CPU has every feature in f (with the
// same HASHLANES_TEST_REQUIRE escalation, by feature name).
func RequireFeatures(t testing.TB, f cpu.Feature) {
	t.Helper()
	if cpu.Has(f) {
		return
	}
	required(t, f.String())
	t.Skipf("this CPU lacks %s", f)
}

func required(t testing.TB, name string) {
	t.Helper()
	for _, n := range strings.Split(os.Getenv("HASHLANES_TEST_REQUIRE"), ",") {
		if strings.TrimSpace(n) == name {
			t.Fatalf("HASHLANES_TEST_REQUIRE names %s, but this CPU lacks it", name)
		}
	}
}

// Require skips t unless this CPU supports level l; when the level is listed
// in HASHLANES_TEST_REQUIRE the skip becomes a failure.
func Require(t testing.TB, l cpu.Level) {
	t.Helper()
	if cpu.Supports(l) {
		return
	}
	required(t, l.String())
	t.Skipf("this CPU supports only %s", cpu.Detected)
}

// RequireFlag skips t unless have, for an extension the levels and
// features do not name (name is how HASHLANES_TEST_REQUIRE names it:
// "pclmul").
func RequireFlag(t testing.TB, have bool, name string) {
	t.Helper()
	if have {
		return
	}
	required(t, name)
	t.Skipf("this CPU lacks %s", name)
}

// Emulated reports whether the tests run under a user-mode emulator
// (qemu-aarch64-static on an x86 machine, as scripts/test runs the arm64
// suite): /proc/cpuinfo then describes the host, not the GOARCH the test
// binary was built for. Faults and child processes behave otherwise there.
func Emulated() bool {
	b, err := os.ReadFile("/proc/cpuinfo")
	if err != nil {
		return false
	}
	x86 := strings.Contains(string(b), "vendor_id")
	return x86 != (runtime.GOARCH == "amd64" || runtime.GOARCH == "386")
}
