//go:build amd64

package cpu

// x86 is the features the kernels use, known at start: from the runtime,
// which has read CPUID already, where this Go version's layout of its
// table is known (x86_runtime.go; -tags purego too, as no assembly runs),
// else from CPUID (readX86, cpuid_amd64.go). Under a
// hypervisor each CPUID is a trap, about 9 µs on one VM measured; a general
// detector's start reads six (docs/engine.md, "Start-up").
var x86 = x86AtStart()

// x86Features is what the kernels need to know of an x86 CPU.
type x86Features struct {
	avx2, bmi2                  bool
	avx512f, avx512bw, avx512vl bool
	sha                         bool // with the SSSE3 and SSE4.1 shuffles its kernels use
}

func x86Level() Level {
	switch {
	case x86.avx512f && x86.avx512bw && x86.avx512vl && x86.avx2 && x86.bmi2:
		// AVX2 too: a level includes the ones below it, and GODEBUG's
		// cpu.avx2=off leaves the AVX-512 bits in the runtime's table.
		return AVX512
	case x86.avx2 && x86.bmi2:
		return AVX2
	}
	return Generic
}

// hasSHA reports SHA-NI with the SSSE3 and SSE4.1 shuffles its kernels
// use. The features name kernels in assembly, which the pure-Go build has
// none of (withAsm); its level stays the CPU's, so that a generic tier
// asked for still runs the engine's pure-Go path (newserver.go).
func hasSHA() bool { return withAsm && x86.sha }

func x86Names() []string {
	var f []string
	for _, c := range []struct {
		has  bool
		name string
	}{
		{x86.avx2, "avx2"}, {x86.bmi2, "bmi2"}, {x86.avx512f, "avx512f"},
		{x86.avx512bw, "avx512bw"}, {x86.avx512vl, "avx512vl"}, {hasSHA(), "sha"},
	} {
		if c.has {
			f = append(f, c.name)
		}
	}
	return f
}
