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

// identify reads the vendor (leaf 0), family and model (leaf 1) and AMX
// (leaf 7, EDX bit 24, which golang.org/x/sys/cpu reports).
func identify() Identity {
	_, b, c, d := cpuid(0, 0)
	id := Identity{
		AMD:   b == 0x68747541 && d == 0x69746e65 && c == 0x444d4163, // "AuthenticAMD"
		Intel: b == 0x756e6547 && d == 0x49656e69 && c == 0x6c65746e, // "GenuineIntel"
		AMX:   cpu.X86.HasAMXTile,
	}
	a, _, _, _ := cpuid(1, 0)
	id.Family = a >> 8 & 0xf
	id.Model = a >> 4 & 0xf
	if id.Family == 0xf || id.Family == 6 {
		id.Model |= a >> 16 & 0xf << 4
	}
	if id.Family == 0xf {
		id.Family += a >> 20 & 0xff
	}
	return id
}
