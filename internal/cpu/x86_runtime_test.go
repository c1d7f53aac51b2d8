//go:build amd64 && !purego && go1.26 && !go1.27

package cpu

import (
	"fmt"
	"os"
	"os/exec"
	"strings"
	"testing"
)

// TestRuntimeX86Layout checks the declared layout of the runtime's table
// field by field against CPUID, for the fields whose bits are plain
// (every CPU sets most of the SSE ones, so a field shifted by one shows
// on any machine).
func TestRuntimeX86Layout(t *testing.T) {
	if strings.Contains(os.Getenv("GODEBUG"), "cpu.") {
		t.Skip("GODEBUG turns features off in the runtime's table, not in CPUID")
	}
	_, _, c1, _ := cpuid(1, 0)
	_, b7, _, _ := cpuid(7, 0)
	r := &runtimeX86
	for _, c := range []struct {
		name      string
		got, want bool
	}{
		{"sse3", r.sse3, c1&(1<<0) != 0},
		{"pclmulqdq", r.pclmulqdq, c1&(1<<1) != 0},
		{"ssse3", r.ssse3, c1&leaf1SSSE3 != 0},
		{"sse41", r.sse41, c1&leaf1SSE41 != 0},
		{"sse42", r.sse42, c1&(1<<20) != 0},
		{"popcnt", r.popcnt, c1&(1<<23) != 0},
		{"aes", r.aes, c1&(1<<25) != 0},
		{"osxsave", r.osxsave, c1&leaf1OSXSAVE != 0},
		{"bmi1", r.bmi1, b7&(1<<3) != 0},
		{"bmi2", r.bmi2, b7&leaf7BMI2 != 0},
		{"erms", r.erms, b7&(1<<9) != 0},
		{"adx", r.adx, b7&(1<<19) != 0},
		{"sha", r.sha, b7&leaf7SHA != 0},
	} {
		if c.got != c.want {
			t.Errorf("the runtime's table says %s %v, CPUID %v: its layout is not the one declared", c.name, c.got, c.want)
		}
	}
}

// TestGODEBUGReachesTheLevel: GODEBUG's cpu.avx2=off, which the runtime
// applies to its table, takes the AVX2 and AVX-512 tiers away here too (a
// level includes the ones below it), and cpu.sha=off the SHA feature. The
// test runs itself again with the setting, as GODEBUG is read at start.
func TestGODEBUGReachesTheLevel(t *testing.T) {
	if os.Getenv("HASHLANES_CPU_TEST_CHILD") == "1" {
		fmt.Printf("level=%v sha=%v\n", Detected, Has(SHA))
		return
	}
	for _, c := range []struct {
		godebug, want string
		needs         bool
	}{
		{"cpu.avx2=off", "level=generic", Detected >= AVX2},
		{"cpu.avx512f=off", "level=avx2", Detected >= AVX512},
		{"cpu.sha=off", "sha=false", Has(SHA)},
	} {
		if !c.needs {
			continue // this CPU has nothing for the setting to take away
		}
		cmd := exec.Command(os.Args[0], "-test.run=^TestGODEBUGReachesTheLevel$", "-test.v")
		cmd.Env = append(os.Environ(), "HASHLANES_CPU_TEST_CHILD=1", "GODEBUG="+c.godebug)
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("GODEBUG=%s: %v\n%s", c.godebug, err, out)
		}
		if !strings.Contains(string(out), c.want) {
			t.Errorf("GODEBUG=%s: want %s in\n%s", c.godebug, c.want, out)
		}
	}
}
