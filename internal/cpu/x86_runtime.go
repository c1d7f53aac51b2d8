//go:build amd64 && go1.26 && !go1.27

package cpu

import _ "unsafe" // for go:linkname

// runtimeX86 is the standard library's table of x86 features
// (internal/cpu.X86), which the runtime fills from CPUID and XCR0 before
// any package starts, and which the standard library marks for other
// packages' use (it is read by assembly elsewhere). Reading it costs no
// CPUID: under a hypervisor each is a trap, and two of them were 1-3%
// of a program that hashes one small file (docs/engine.md,
// "Start-up"). The fields are Go 1.26's, in its order, which is why the
// build constraint names that version alone; other versions read CPUID
// (x86_cpuid.go); TestRuntimeX86Layout checks the layout field by field
// and TestStartAgreesWithCPUID the features read against CPUID.
//
//go:linkname runtimeX86 internal/cpu.X86
var runtimeX86 struct {
	_                                                              [64]byte // the cache line's pad
	aes, adx, avx, avxvnni, avx2                                   bool
	avx512, avx512f, avx512cd, avx512bw, avx512dq, avx512vl        bool
	avx512gfni, avx512vaes, avx512vnni, avx512vbmi, avx512vbmi2    bool
	avx512bitalg, avx512vpopcntdq, avx512vpclmulqdq, bmi1, bmi2    bool
	erms, fsrm, fma, gfni, osxsave, pclmulqdq, popcnt, rdtscp, sha bool
	sse3, ssse3, sse41, sse42, vaes                                bool
	_                                                              [64]byte
}

// x86AtStart takes the features from the runtime's table. Its AVX, AVX2
// and AVX-512 bits already include XCR0's say on the register state, and
// GODEBUG=cpu.avx2=off and the like turn them off here as in the standard
// library.
func x86AtStart() x86Features {
	r := &runtimeX86
	return x86Features{
		avx2:     r.avx2,
		bmi2:     r.bmi2,
		avx512f:  r.avx512f,
		avx512bw: r.avx512bw,
		avx512vl: r.avx512vl,
		sha:      r.sha && r.ssse3 && r.sse41,
	}
}
