// Package cpu reports which instruction-set level the kernels may use, once,
// at start-up, and lets tests and users cap it with HASHLANES_CPU.
package cpu

import (
	"fmt"
	"runtime"
	"strings"
	"sync"

	"github.com/hashlanes/hashlanes/internal/procenv"
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
var Active, OverrideErr = fromEnv(procenv.Get("HASHLANES_CPU"))

func detect() Level {
	switch runtime.GOARCH {
	case "amd64":
		return x86Level()
	case "arm64":
		return arm64Level()
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
func Has(f Feature) bool { return f&^available == 0 }

func (f Feature) String() string {
	switch f {
	case SHA:
		return "sha"
	case SHA512:
		return "sha512"
	}
	return fmt.Sprintf("Feature(%#x)", uint(f))
}

// available is the features Has reports, from the bits read at start.
var available = features()

func features() Feature {
	if Active == Generic {
		return 0
	}
	switch runtime.GOARCH {
	case "amd64":
		if hasSHA() {
			return SHA
		}
	case "arm64":
		return arm64Features()
	}
	return 0
}

// Supports reports whether code of level l can run on this CPU.
func Supports(l Level) bool { return l <= Detected }

// Features lists the instruction-set extensions the kernels care about, for
// reports ("avx2 avx512f avx512bw avx512vl bmi2 sha").
func Features() []string {
	switch runtime.GOARCH {
	case "amd64":
		return x86Names()
	case "arm64":
		return arm64Names()
	}
	return nil
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

// ID returns this CPU's identity, read on first use: on x86 three CPUIDs
// (leaves 0, 1 and 7), each a trap to the hypervisor in a VM, that only
// the tuning's prior needs (docs/engine.md, "Start-up").
func ID() Identity { return identify() }

// Brand returns the CPU's brand string ("AMD EPYC 9R14 96-Core
// Processor", or what a hypervisor passes through), read on first use:
// four more CPUIDs, which only what prints or saves the identity needs.
func Brand() string {
	brandOnce.Do(func() { brandRead = brand() })
	return brandRead
}

// The brand's Once and string are zero data: a sync.OnceValue would be a
// closure allocated at every process's start.
var (
	brandOnce sync.Once
	brandRead string
)
