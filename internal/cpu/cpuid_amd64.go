//go:build amd64 && !purego

package cpu

import (
	"strings"
	"sync"

	"golang.org/x/sys/cpu"
)

//go:generate go run -C ../kernel/_asm ./cpuid -out ../../cpu/cpuid_amd64.s -stubs ../../cpu/cpuid_amd64_stubs.go -pkg cpu

// leaves is what the identity and the SHA probe read of CPUID, each once
// and apart: under a hypervisor each CPUID is a trap (5-12 µs here), and a
// lone stream of SHA-1 or SHA-256 needs the SHA probe but not the
// identity, which only the tuning's prior asks for (docs/engine.md,
// "Start-up"). Plain Onces over flat functions, not values made once
// inside one another: the first use's calls nest deep, and each such
// layer of closures costs stack a fresh process must then grow.
var leaves struct {
	idOnce, shaOnce sync.Once
	id              Identity
	sha             bool
}

// identify reads the vendor (leaf 0), family, model and stepping (leaf 1)
// and AMX (leaf 7, EDX bit 24, which golang.org/x/sys/cpu reports).
func identify() Identity {
	leaves.idOnce.Do(readIdentity)
	return leaves.id
}

// hasSHA reports SHA-NI (CPUID leaf 7, EBX bit 29) with the SSSE3 and
// SSE4.1 shuffles its kernels use alongside.
func hasSHA() bool {
	leaves.shaOnce.Do(readSHA)
	return leaves.sha
}

func readIdentity() {
	_, b, c, d := cpuid(0, 0)
	id := Identity{Vendor: string(appendWords(nil, b, d, c)), AMX: cpu.X86.HasAMXTile}
	a, _, _, _ := cpuid(1, 0)
	id.Stepping = a & 0xf
	id.Family = a >> 8 & 0xf
	id.Model = a >> 4 & 0xf
	if id.Family == 0xf || id.Family == 6 {
		id.Model |= a >> 16 & 0xf << 4
	}
	if id.Family == 0xf {
		id.Family += a >> 20 & 0xff
	}
	leaves.id = id
}

func readSHA() {
	if !hasLeaf7() {
		return
	}
	_, b, _, _ := cpuid(7, 0)
	leaves.sha = b&(1<<29) != 0 && cpu.X86.HasSSSE3 && cpu.X86.HasSSE41
}

// hasLeaf7 reports whether CPUID has leaf 7. golang.org/x/sys/cpu reads
// the features below from it only when leaf 0 says it exists, so any of
// them set answers without a CPUID; a CPU with none of them asks leaf 0.
func hasLeaf7() bool {
	x := &cpu.X86
	if x.HasBMI1 || x.HasAVX2 || x.HasERMS || x.HasADX || x.HasRDSEED || x.HasAVX512F {
		return true
	}
	max, _, _, _ := cpuid(0, 0)
	return max >= 7
}

// brand reads the brand string, leaves 80000002h-80000004h.
func brand() string {
	if max, _, _, _ := cpuid(0x80000000, 0); max < 0x80000004 {
		return ""
	}
	var s []byte
	for leaf := uint32(0x80000002); leaf <= 0x80000004; leaf++ {
		a, b, c, d := cpuid(leaf, 0)
		s = appendWords(s, a, b, c, d)
	}
	return strings.TrimSpace(strings.TrimRight(string(s), "\x00"))
}

// appendWords appends the words' bytes, little-endian: CPUID's strings.
func appendWords(b []byte, words ...uint32) []byte {
	for _, w := range words {
		b = append(b, byte(w), byte(w>>8), byte(w>>16), byte(w>>24))
	}
	return b
}
