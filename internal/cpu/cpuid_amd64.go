//go:build amd64 && !purego

package cpu

import (
	"strings"
	"sync"
)

//go:generate go run -C ../kernel/_asm ./cpuid -out ../../cpu/cpuid_amd64.s -stubs ../../cpu/cpuid_amd64_stubs.go -pkg cpu

// CPUID bits, Intel SDM vol. 2A, "CPUID".
const (
	leaf1SSSE3   = 1 << 9  // ECX
	leaf1SSE41   = 1 << 19 // ECX
	leaf1XSAVE   = 1 << 26 // ECX
	leaf1OSXSAVE = 1 << 27 // ECX
	leaf1AVX     = 1 << 28 // ECX

	leaf7AVX2     = 1 << 5  // EBX
	leaf7BMI2     = 1 << 8  // EBX
	leaf7AVX512F  = 1 << 16 // EBX
	leaf7SHA      = 1 << 29 // EBX
	leaf7AVX512BW = 1 << 30 // EBX
	leaf7AVX512VL = 1 << 31 // EBX
	leaf7AMXTile  = 1 << 24 // EDX

	xcr0AVX    = 1<<1 | 1<<2        // XMM and YMM state
	xcr0AVX512 = 1<<5 | 1<<6 | 1<<7 // opmask, ZMM0-15's upper halves, ZMM16-31
)

// withAsm is whether the package's assembly is built.
const withAsm = true

// readX86 reads the features from CPUID and XCR0: leaves 1 and 7 and one
// XGETBV.
func readX86() x86Features {
	var f x86Features
	_, _, c1, _ := cpuid(1, 0)
	// Leaf 7 exists on every CPU with XSAVE, which CPUID enumerates in
	// leaf 0Dh; only a CPU without it needs leaf 0 to say how far the
	// leaves go.
	if c1&leaf1XSAVE == 0 {
		if max, _, _, _ := cpuid(0, 0); max < 7 {
			return f
		}
	}
	_, b7, _, _ := cpuid(7, 0)
	var xcr0 uint32
	if c1&leaf1OSXSAVE != 0 {
		xcr0, _ = xgetbv0()
	}
	osAVX := c1&leaf1AVX != 0 && xcr0&xcr0AVX == xcr0AVX
	// Darwin enables the AVX-512 state on first use, so XCR0 does not show
	// it there and the kernels stay at AVX2: slower, never wrong.
	osAVX512 := osAVX && xcr0&xcr0AVX512 == xcr0AVX512
	f.avx2 = osAVX && b7&leaf7AVX2 != 0
	f.bmi2 = b7&leaf7BMI2 != 0
	f.avx512f = osAVX512 && b7&leaf7AVX512F != 0
	f.avx512bw = osAVX512 && b7&leaf7AVX512BW != 0
	f.avx512vl = osAVX512 && b7&leaf7AVX512VL != 0
	// The SHA-NI kernels use SSSE3's and SSE4.1's shuffles beside it.
	f.sha = b7&leaf7SHA != 0 && c1&leaf1SSSE3 != 0 && c1&leaf1SSE41 != 0
	return f
}

// identity is the CPU's identity, read on first use: leaves 0 (the
// vendor), 1 (family, model, stepping) and 7 (AMX), CPUIDs that only the
// tuning's prior needs (docs/engine.md, "Start-up").
// A plain Once over a flat function, not a value made once inside
// another: the first use's calls nest deep, and each such layer of
// closures costs stack a fresh process must then grow.
var identity struct {
	once sync.Once
	id   Identity
}

func identify() Identity {
	identity.once.Do(readIdentity)
	return identity.id
}

func readIdentity() {
	max, b, c, d := cpuid(0, 0)
	a, _, _, _ := cpuid(1, 0)
	id := Identity{Vendor: string(appendWords(nil, b, d, c))}
	if max >= 7 {
		_, _, _, d7 := cpuid(7, 0)
		id.AMX = d7&leaf7AMXTile != 0
	}
	id.Stepping = a & 0xf
	id.Family = a >> 8 & 0xf
	id.Model = a >> 4 & 0xf
	if id.Family == 0xf || id.Family == 6 {
		id.Model |= a >> 16 & 0xf << 4
	}
	if id.Family == 0xf {
		id.Family += a >> 20 & 0xff
	}
	identity.id = id
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
