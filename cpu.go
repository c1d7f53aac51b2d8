package hashlanes

import "github.com/hashlanes/hashlanes/internal/cpu"

// CPU is an instruction-set tier the kernels are built for.
type CPU int

const (
	CPUGeneric CPU = CPU(cpu.Generic) // no SIMD and no SHA extensions: pure Go, or plain x86-64 assembly
	CPUAVX2    CPU = CPU(cpu.AVX2)
	CPUAVX512  CPU = CPU(cpu.AVX512)

	// CPUNEON is arm64's vector tier (Advanced SIMD, and the crypto
	// extensions' SHA instructions where the CPU has them). It ranks with
	// CPUAVX2, the tier above generic.
	CPUNEON CPU = CPU(cpu.NEON)
)

// String returns "generic", "avx2" or "avx512" ("generic" or "neon" on arm64).
func (c CPU) String() string { return cpu.Level(c).String() }

// ParseCPU parses the names HASHLANES_CPU accepts.
func ParseCPU(s string) (CPU, error) {
	l, err := cpu.ParseLevel(s)
	return CPU(l), err
}

// DetectedCPU is the highest tier this machine supports.
func DetectedCPU() CPU { return CPU(cpu.Detected) }

// ActiveCPU is the tier the default engines use: DetectedCPU, capped by the
// environment variable HASHLANES_CPU.
func ActiveCPU() CPU { return CPU(cpu.Active) }

// CPUEnvError reports a HASHLANES_CPU value that could not be honoured
// (unknown, or above what this CPU supports); nil when there is none.
func CPUEnvError() error { return cpu.OverrideErr }

// CPUFeatures lists the instruction-set extensions found on this machine
// that the kernels can use.
func CPUFeatures() []string { return cpu.Features() }
