package hashlanes

import (
	"errors"
	"os"
	"os/exec"
	"runtime"
	"strings"
	"syscall"
	"testing"

	"github.com/hashlanes/hashlanes/internal/cpu"
	"github.com/hashlanes/hashlanes/internal/cpu/cputest"
	"github.com/hashlanes/hashlanes/internal/kernel/md5"
	"github.com/hashlanes/hashlanes/internal/tuning"
)

// TestEnvForcesPath runs this test binary again with HASHLANES_CPU set and
// checks which kernels the default engine then reports.
func TestEnvForcesPath(t *testing.T) {
	if os.Getenv("HASHLANES_PRINT_KERNEL") != "" {
		os.Stdout.WriteString("kernel=" + DefaultServer(MD5).Kernel() + " active=" + ActiveCPU().String() + "\n")
		return
	}
	for _, c := range []CPU{CPUGeneric, CPUAVX2, CPUAVX512} {
		t.Run(c.String(), func(t *testing.T) {
			cputest.Require(t, cpu.Level(c))
			if c > ActiveCPU() {
				// WithCPU only lowers the level HASHLANES_CPU allows.
				t.Skipf("HASHLANES_CPU=%s caps the kernels", ActiveCPU())
			}
			kern := NewServer(MD5, WithCPU(c)).Kernel()
			if c > CPUGeneric && hasAsm(cpu.Level(c)) && !strings.Contains(kern, c.String()) {
				t.Fatalf("WithCPU(%v) runs %s", c, kern)
			}
			want := "kernel=" + kern + " active=" + c.String() + "\n"
			cmd := exec.Command(os.Args[0], "-test.run=^TestEnvForcesPath$")
			cmd.Env = append(os.Environ(), "HASHLANES_PRINT_KERNEL=1", "HASHLANES_CPU="+c.String())
			out, err := cmd.CombinedOutput()
			skipIfNoChild(t, err)
			if err != nil {
				t.Fatalf("%v\n%s", err, out)
			}
			if !strings.Contains(string(out), want) {
				t.Fatalf("HASHLANES_CPU=%s:\n%s\nwant %s", c, out, want)
			}
		})
	}
}

// hasAsm reports whether a multi-lane kernel of exactly level l is built.
func hasAsm(l cpu.Level) bool {
	for _, m := range md5.Multis() {
		if m.Level == l && !m.Reference {
			return true
		}
	}
	return false
}

// TestEnvErrors: HASHLANES_CPU takes this GOARCH's tier names, in any
// case, and no other's.
func TestEnvErrors(t *testing.T) {
	own, other := map[string]CPU{"avx2": CPUAVX2, "avx512": CPUAVX512}, "neon"
	if runtime.GOARCH == "arm64" {
		own, other = map[string]CPU{"neon": CPUNEON}, "avx2"
	}
	for _, bad := range []string{"sse9", other} {
		if _, err := cpu.ParseLevel(bad); err == nil {
			t.Errorf("%s accepted on %s", bad, runtime.GOARCH)
		}
	}
	for name, want := range own {
		if c, err := ParseCPU(strings.ToUpper(name)); err != nil || c != want || c.String() != name {
			t.Errorf("ParseCPU(%q) = %v, %v", strings.ToUpper(name), c, err)
		}
	}
}

// TestTuning checks the description of where the default servers' rates
// come from: the mode and the prior, by name.
func TestTuning(t *testing.T) {
	got := Tuning()
	if runtime.GOARCH != "amd64" { // the priors are amd64's
		if !strings.HasPrefix(got, "mode ") || !strings.Contains(got, "; "+tuning.NoPrior()) {
			t.Errorf("Tuning() = %q, want the mode and that %s has no prior", got, runtime.GOARCH)
		}
		return
	}
	if !strings.HasPrefix(got, "mode ") || !strings.Contains(got, "; prior ") {
		t.Errorf("Tuning() = %q, want the mode and the prior", got)
	}
	known := false
	for _, name := range tuning.PriorNames() {
		known = known || strings.Contains(got, "prior "+name)
	}
	if !known {
		t.Errorf("Tuning() = %q names no prior of %v", got, tuning.PriorNames())
	}
}

// skipIfNoChild skips a test that runs the test binary again in a child
// process where that cannot be done: under qemu's user mode without
// binfmt_misc, the emulated binary cannot exec another of its GOARCH.
func skipIfNoChild(t *testing.T, err error) {
	if errors.Is(err, syscall.ENOEXEC) {
		t.Skip("the test binary cannot run as a child process here:", err)
	}
}
