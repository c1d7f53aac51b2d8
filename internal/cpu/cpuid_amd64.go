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
