//go:build amd64 && !purego

package cpu

import "golang.org/x/sys/cpu"

//go:generate go run -C ../kernel/_asm ./cpuid -out ../../cpu/cpuid_amd64.s -stubs ../../cpu/cpuid_amd64_stubs.go -pkg cpu

// hasSHA reports SHA-NI (CPUID leaf 7, EBX bit 29) with the SSSE3 and
// SSE4.1 shuffles its kernels use alongside.
func hasSHA() bool {
	if max, _, _, _ := cpuid(0, 0); max < 7 {
		return false
	}
	_, b, _, _ := cpuid(7, 0)
	return b&(1<<29) != 0 && cpu.X86.HasSSSE3 && cpu.X86.HasSSE41
}

// amdFamilyModel returns the family and model CPUID leaf 1 reports
// (extended fields folded in) and whether the vendor is AMD.
func amdFamilyModel() (family, model uint32, amd bool) {
	_, b, c, d := cpuid(0, 0)
	amd = b == 0x68747541 && d == 0x69746e65 && c == 0x444d4163 // "AuthenticAMD"
	a, _, _, _ := cpuid(1, 0)
	family = a >> 8 & 0xf
	model = a >> 4 & 0xf
	if family == 0xf {
		family += a >> 20 & 0xff
		model |= a >> 16 & 0xf << 4
	}
	return family, model, amd
}
