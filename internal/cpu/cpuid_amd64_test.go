//go:build amd64 && !purego

package cpu

import (
	"testing"

	"golang.org/x/sys/cpu"
)

// TestX86AgreesWithXSys checks the package's own reading of CPUID and XCR0
// against golang.org/x/sys/cpu's, which reads every leaf: the bits, the
// leaf-7 shortcut and the OS-support checks must give the same answers.
func TestX86AgreesWithXSys(t *testing.T) {
	x := &cpu.X86
	for _, c := range []struct {
		name      string
		own, xsys bool
	}{
		{"avx2", x86.avx2, x.HasAVX2},
		{"bmi2", x86.bmi2, x.HasBMI2},
		{"avx512f", x86.avx512f, x.HasAVX512F},
		{"avx512bw", x86.avx512bw, x.HasAVX512BW},
		{"avx512vl", x86.avx512vl, x.HasAVX512VL},
		{"amx-tile", x86.amx, x.HasAMXTile},
	} {
		if c.own != c.xsys {
			t.Errorf("%s: read %v, golang.org/x/sys/cpu says %v", c.name, c.own, c.xsys)
		}
	}
	// x/sys/cpu does not report SHA-NI: leaf 7 read apart.
	_, b7, _, _ := cpuid(7, 0)
	if want := b7&leaf7SHA != 0 && x.HasSSSE3 && x.HasSSE41; x86.sha != want {
		t.Errorf("sha: read %v, want %v", x86.sha, want)
	}
	if id := ID(); id.Vendor == "" || id.Family == 0 {
		t.Errorf("identity %+v: no vendor or family", id)
	}
	t.Logf("features %v, level %v, identity %+v", Features(), Detected, ID())
}
