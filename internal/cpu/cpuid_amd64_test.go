//go:build amd64 && !purego

package cpu

import (
	"os"
	"strings"
	"testing"

	"golang.org/x/sys/cpu"
)

// TestCPUIDAgreesWithXSys checks the package's own reading of CPUID and
// XCR0 (readX86) against golang.org/x/sys/cpu's, which reads every leaf:
// the bits, the leaf-7 shortcut and the OS-support checks must give the
// same answers.
func TestCPUIDAgreesWithXSys(t *testing.T) {
	x, own := &cpu.X86, readX86()
	for _, c := range []struct {
		name      string
		own, xsys bool
	}{
		{"avx2", own.avx2, x.HasAVX2},
		{"bmi2", own.bmi2, x.HasBMI2},
		{"avx512f", own.avx512f, x.HasAVX512F},
		{"avx512bw", own.avx512bw, x.HasAVX512BW},
		{"avx512vl", own.avx512vl, x.HasAVX512VL},
	} {
		if c.own != c.xsys {
			t.Errorf("%s: read %v, golang.org/x/sys/cpu says %v", c.name, c.own, c.xsys)
		}
	}
	// x/sys/cpu does not report SHA-NI: leaf 7 read apart.
	_, b7, _, d7 := cpuid(7, 0)
	if want := b7&leaf7SHA != 0 && x.HasSSSE3 && x.HasSSE41; own.sha != want {
		t.Errorf("sha: read %v, want %v", own.sha, want)
	}
	id := ID()
	if id.Vendor == "" || id.Family == 0 {
		t.Errorf("identity %+v: no vendor or family", id)
	}
	if id.AMX != x.HasAMXTile || id.AMX != (d7&leaf7AMXTile != 0) {
		t.Errorf("identity's AMX %v, golang.org/x/sys/cpu says %v", id.AMX, x.HasAMXTile)
	}
	t.Logf("features %v, level %v, identity %+v", Features(), Detected, id)
}

// TestStartAgreesWithCPUID: the features known at start (the runtime's
// table where its layout is known, x86_runtime.go) are the ones CPUID
// gives. A wrong layout would read other fields' bits here.
func TestStartAgreesWithCPUID(t *testing.T) {
	if strings.Contains(os.Getenv("GODEBUG"), "cpu.") {
		t.Skip("GODEBUG turns features off in the runtime's table, not in CPUID")
	}
	if got, want := x86AtStart(), readX86(); got != want {
		t.Errorf("features at start %+v, CPUID says %+v", got, want)
	}
}
