// Command md5 generates the amd64 MD5 kernels of internal/kernel/md5.
package main

import (
	"github.com/hashlanes/hashlanes/internal/kernel/_asm/lanewrap"
	"github.com/hashlanes/hashlanes/internal/kernel/md5/rounds"
	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
)

var (
	consts = rounds.K
	word   = rounds.Word
)

// shifts are the rotations as immediates.
var shifts = func() (s [4][4]uint64) {
	for i := range s {
		for j := range s[i] {
			s[i][j] = uint64(rounds.Shift[i][j])
		}
	}
	return s
}()

func main() {
	ConstraintExpr("amd64,!purego")
	scalar()
	scalarX2()
	avx2()
	avx512(ymmGroups(2))
	avx512(ymmGroups(4))
	avx512(zmmGroups(1))
	avx512(zmmGroups(2))
	batchAVX2()
	batchAVX512(ymmGroups(2))
	batchAVX512(ymmGroups(4))
	batchAVX512(zmmGroups(1))
	batchAVX512(zmmGroups(2))
	// The Go side of the kernels: wrappers and the package's lists.
	lanewrap.Rows(lanewrap.Kernel{Go: "AMD64x2", Level: "Generic", Lanes: 2,
		Doc: "Base x86-64 only, like amd64: two streams a core without SIMD."}, 4)
	lanewrap.Lanes(lanewrap.Kernel{Go: "AVX2x16", Level: "AVX2", Lanes: 16}, 4, 32)
	lanewrap.Lanes(lanewrap.Kernel{Go: "AVX512YMMx16", Level: "AVX512", Lanes: 16}, 4, 32)
	lanewrap.Lanes(lanewrap.Kernel{Go: "AVX512YMMx32", Level: "AVX512", Lanes: 32}, 4, 32)
	lanewrap.Lanes(lanewrap.Kernel{Go: "AVX512ZMMx16", Level: "AVX512", Lanes: 16,
		Doc: "Lanes in ZMM registers: half the YMM kernels' instructions."}, 4, 32)
	lanewrap.Lanes(lanewrap.Kernel{Go: "AVX512ZMMx32", Level: "AVX512", Lanes: 32}, 4, 32)
	// Narrowest first, as kernel.Batch lists go.
	lanewrap.Batch(lanewrap.Kernel{Go: "AVX2x16", Level: "AVX2", Lanes: 16}, false)
	lanewrap.Batch(lanewrap.Kernel{Go: "AVX512YMMx16", Level: "AVX512", Lanes: 16}, false)
	lanewrap.Batch(lanewrap.Kernel{Go: "AVX512ZMMx16", Level: "AVX512", Lanes: 16}, false)
	lanewrap.Batch(lanewrap.Kernel{Go: "AVX512YMMx32", Level: "AVX512", Lanes: 32}, false)
	lanewrap.Batch(lanewrap.Kernel{Go: "AVX512ZMMx32", Level: "AVX512", Lanes: 32}, false)
	Generate()
	lanewrap.Write("md5")
}

var scalarTable, broadcastTable Mem
var haveScalar, haveBroadcast bool

var ivTable Mem
var haveIV bool

// initValue is MD5's initial chaining value, for broadcast loads.
func initValue() Mem {
	if !haveIV {
		ivTable = GLOBL("md5init", RODATA|NOPTR)
		for i, w := range [4]uint32{0x67452301, 0xefcdab89, 0x98badcfe, 0x10325476} {
			DATA(4*i, U32(w))
		}
		haveIV = true
	}
	return ivTable
}

// scalarConsts is the 64 step constants, for broadcast operands.
func scalarConsts() Mem {
	if !haveScalar {
		scalarTable = GLOBL("md5consts", RODATA|NOPTR)
		for i, k := range consts {
			DATA(4*i, U32(k))
		}
		haveScalar = true
	}
	return scalarTable
}

// broadcastConsts is each step constant repeated across a YMM register, for
// AVX2, which cannot broadcast inside an arithmetic operand.
func broadcastConsts() Mem {
	if !haveBroadcast {
		broadcastTable = GLOBL("md5consts8", RODATA|NOPTR)
		for i, k := range consts {
			for l := range 8 {
				DATA(32*i+4*l, U32(k))
			}
		}
		haveBroadcast = true
	}
	return broadcastTable
}
