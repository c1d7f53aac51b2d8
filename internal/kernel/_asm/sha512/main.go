// Command sha512 generates the amd64 SHA-512 kernels of
// internal/kernel/sha512.
package main

import (
	"github.com/hashlanes/hashlanes/internal/kernel/_asm/lanewrap"
	"github.com/hashlanes/hashlanes/internal/kernel/_asm/sha2"
	"github.com/hashlanes/hashlanes/internal/kernel/sha512/rounds"
	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
)

func main() {
	ConstraintExpr("amd64,!purego")
	single(false)
	single(true)
	avx2()
	avx512()
	zmm()
	batchAVX2()
	batchAVX512()
	batchZMM()
	// The Go side of the kernels: wrappers and the package's lists.
	lanewrap.Lanes(lanewrap.Kernel{Go: "AVX2x4", Level: "AVX2", Lanes: 4}, 8, 64)
	lanewrap.Lanes(lanewrap.Kernel{Go: "AVX512YMMx8", Level: "AVX512", Lanes: 8}, 8, 64)
	lanewrap.Lanes(lanewrap.Kernel{Go: "AVX512ZMMx8", Level: "AVX512", Lanes: 8}, 8, 64)
	lanewrap.Batch(lanewrap.Kernel{Go: "AVX2x4", Level: "AVX2", Lanes: 4}, true)
	lanewrap.Batch(lanewrap.Kernel{Go: "AVX512YMMx8", Level: "AVX512", Lanes: 8}, true)
	lanewrap.Batch(lanewrap.Kernel{Go: "AVX512ZMMx8", Level: "AVX512", Lanes: 8}, true)
	Generate()
	lanewrap.Write("sha512")
}

// constTable is the 80 round constants.
func constTable() Mem { return sha2.SHA512.Consts("sha512consts", rounds.K[:]) }

// byteSwapMask reverses the bytes of each 64-bit word.
func byteSwapMask() Mem { return sha2.SHA512.ByteSwapMask("sha512bswap") }
