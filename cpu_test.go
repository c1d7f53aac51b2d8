package hashlanes

import (
	"os"
	"os/exec"
	"strings"
	"testing"

	"github.com/hashlanes/hashlanes/internal/cpu"
	"github.com/hashlanes/hashlanes/internal/cpu/cputest"
)

// TestEnvForcesPath runs this test binary again with HASHLANES_CPU set and
// checks which kernels the default engine then reports.
func TestEnvForcesPath(t *testing.T) {
	if os.Getenv("HASHLANES_PRINT_KERNEL") != "" {
		os.Stdout.WriteString("kernel=" + DefaultServer(MD5).Kernel() + " active=" + ActiveCPU().String() + "\n")
		return
	}
	for _, c := range []struct {
		env   string
		level cpu.Level
		want  string
	}{
		{"generic", cpu.Generic, "kernel=amd64 (single stream) active=generic"},
		{"avx2", cpu.AVX2, "kernel=avx2x16 (16 lanes) + amd64 (single stream) active=avx2"},
		{"avx512", cpu.AVX512, "kernel=avx512x16 (16 lanes) + avx512x32 (32 lanes) + amd64 (single stream) active=avx512"},
	} {
		t.Run(c.env, func(t *testing.T) {
			cputest.Require(t, c.level)
			if !strings.HasPrefix(c.want, "kernel=amd64") && cpu.Detected == cpu.Generic {
				t.Skip("no SIMD")
			}
			cmd := exec.Command(os.Args[0], "-test.run=^TestEnvForcesPath$")
			cmd.Env = append(os.Environ(), "HASHLANES_PRINT_KERNEL=1", "HASHLANES_CPU="+c.env)
			out, err := cmd.CombinedOutput()
			if err != nil {
				t.Fatalf("%v\n%s", err, out)
			}
			if !strings.Contains(string(out), c.want+"\n") {
				t.Fatalf("HASHLANES_CPU=%s:\n%s\nwant %s", c.env, out, c.want)
			}
		})
	}
}

func TestEnvErrors(t *testing.T) {
	if _, err := cpu.ParseLevel("sse9"); err == nil {
		t.Fatal("sse9 accepted")
	}
	if l, err := cpu.ParseLevel("AVX2"); err != nil || l != cpu.AVX2 {
		t.Fatal("AVX2 not parsed")
	}
	if c, err := ParseCPU("avx512"); err != nil || c != CPUAVX512 || c.String() != "avx512" {
		t.Fatal("ParseCPU")
	}
}
