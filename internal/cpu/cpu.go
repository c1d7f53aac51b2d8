// Package cpu reports which instruction-set level the kernels may use, once,
// at start-up, and lets tests and users cap it with HASHLANES_CPU.
package cpu

import (
	"fmt"
	"os"
	"runtime"
	"strings"
	"sync"

	"golang.org/x/sys/cpu"
)

// Level is an instruction-set tier. Kernels are chosen per level; a higher
// level includes everything below it.
type Level int

const (
	Generic Level = iota // pure Go
	AVX2                 // AVX2 + BMI2
	AVX512               // AVX-512 F, BW, VL

	// NEON is arm64's vector tier, Advanced SIMD, which every arm64 CPU
	// Go runs on has; its hash extensions are Features. It ranks with
	// AVX2: the tier above generic.
	NEON = AVX2
)

// levelNames are the tiers' names on this GOARCH.
var levelNames = levelNamesOf(runtime.GOARCH)

func levelNamesOf(goarch string) []string {
	if goarch == "arm64" {
		return []string{Generic: "generic", NEON: "neon"}
	}
	return []string{Generic: "generic", AVX2: "avx2", AVX512: "avx512"}
}

func (l Level) String() string {
	if l >= 0 && int(l) < len(levelNames) {
		return levelNames[l]
	}
	return fmt.Sprintf("Level(%d)", int(l))
}

// ParseLevel parses the names HASHLANES_CPU accepts on this GOARCH.
func ParseLevel(s string) (Level, error) { return ParseLevelOf(runtime.GOARCH, s) }

// ParseLevelOf parses goarch's names of the tiers, for data recorded on
// that architecture (the tuning's priors, measured on amd64).
func ParseLevelOf(goarch, s string) (Level, error) {
	names := levelNamesOf(goarch)
	for l, name := range names {
		if strings.EqualFold(s, name) {
			return Level(l), nil
		}
	}
	want := strings.Join(names[:len(names)-1], ", ") + " or " + names[len(names)-1]
	return Generic, fmt.Errorf("hashlanes: unknown CPU level %q (want %s)", s, want)
}

// Detected is the highest level this CPU and OS support.
var Detected = detect()

// Active is the level the kernels use: Detected, lowered by HASHLANES_CPU.
// OverrideErr is non-nil when HASHLANES_CPU held something unusable; the
// variable is then ignored, and commands report the error.
var Active, OverrideErr = fromEnv(os.Getenv("HASHLANES_CPU"))

func detect() Level {
	switch runtime.GOARCH {
	case "arm64":
		if cpu.ARM64.HasASIMD {
			return NEON
		}
		return Generic
	case "amd64":
	default:
		return Generic
	}
	x := &cpu.X86
	switch {
	case x.HasAVX512F && x.HasAVX512BW && x.HasAVX512VL && x.HasBMI2:
		return AVX512
	case x.HasAVX2 && x.HasBMI2:
		return AVX2
	}
	return Generic
}

func fromEnv(v string) (Level, error) {
	if v == "" {
		return Detected, nil
	}
	l, err := ParseLevel(v)
	if err != nil {
		return Detected, err
	}
	if l > Detected {
		return Detected, fmt.Errorf("hashlanes: HASHLANES_CPU=%s, but this CPU supports only %s", v, Detected)
	}
	return l, nil
}

// Feature is a set of instruction-set extensions outside the levels.
type Feature uint

const (
	// SHA is the SHA extensions: on amd64 SHA-NI (SHA1RNDS4, SHA256RNDS2
	// and their message helpers), on arm64 the SHA-1 and SHA-256
	// instructions of the crypto extensions (SHA1C..., SHA256H...).
	SHA Feature = 1 << iota
	// SHA512 is arm64's SHA-512 instructions (SHA512H...), an optional
	// part of the crypto extensions (Armv8.2).
	SHA512
)

// Has reports whether this CPU has every feature in f. With HASHLANES_CPU
// at generic, it has none: generic means no SIMD and no hash extensions.
func Has(f Feature) bool { return f&^available() == 0 }

func (f Feature) String() string {
	switch f {
	case SHA:
		return "sha"
	case SHA512:
		return "sha512"
	}
	return fmt.Sprintf("Feature(%#x)", uint(f))
}

// available is the features Has reports, read on first use (see ID).
var available = sync.OnceValue(func() Feature {
	var f Feature
	switch runtime.GOARCH {
	case "amd64":
		if Active > Generic && hasSHA() {
			f |= SHA
		}
	case "arm64":
		if Active > Generic && cpu.ARM64.HasSHA1 && cpu.ARM64.HasSHA2 {
			f |= SHA
		}
		if Active > Generic && cpu.ARM64.HasSHA512 {
			f |= SHA512
		}
	}
	return f
})

// Supports reports whether code of level l can run on this CPU.
func Supports(l Level) bool { return l <= Detected }

// Features lists the instruction-set extensions the kernels care about, for
// reports ("avx2 avx512f avx512bw avx512vl bmi2 sha").
func Features() []string {
	if runtime.GOARCH == "arm64" {
		a := &cpu.ARM64
		var f []string
		for _, c := range []struct {
			has  bool
			name string
		}{
			{a.HasASIMD, "asimd"}, {a.HasSHA1, "sha1"}, {a.HasSHA2, "sha2"}, {a.HasSHA512, "sha512"}, {a.HasSVE, "sve"},
		} {
			if c.has {
				f = append(f, c.name)
			}
		}
		return f
	}
	if runtime.GOARCH != "amd64" {
		return nil
	}
	x := &cpu.X86
	var f []string
	for _, c := range []struct {
		has  bool
		name string
	}{
		{x.HasAVX2, "avx2"}, {x.HasBMI2, "bmi2"}, {x.HasAVX512F, "avx512f"},
		{x.HasAVX512BW, "avx512bw"}, {x.HasAVX512VL, "avx512vl"}, {hasSHA(), "sha"},
	} {
		if c.has {
			f = append(f, c.name)
		}
	}
	return f
}

// Identity is what CPUID says of the design: vendor, family, model and
// stepping (extended fields folded in), and whether it has AMX tiles. The
// tuning package picks its prior by it and keys measured kernel rates by
// it.
type Identity struct {
	Vendor                  string // "GenuineIntel", "AuthenticAMD"; empty off x86
	Family, Model, Stepping uint32
	AMX                     bool
}

// ID returns this CPU's identity, read on first use and apart from the SHA
// probe: two CPUID instructions, each a trap to the hypervisor in a VM,
// that only the tuning's prior needs (docs/engine.md, "Start-up").
func ID() Identity { return identify() }

// Brand returns the CPU's brand string ("AMD EPYC 9R14 96-Core
// Processor", or what a hypervisor passes through), read on first use:
// four more CPUIDs, which only what prints or saves the identity needs.
var Brand = sync.OnceValue(brand)
