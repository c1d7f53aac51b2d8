// Command sha256 generates the amd64 SHA-256 kernels of
// internal/kernel/sha256.
package main

import (
	"github.com/hashlanes/hashlanes/internal/kernel/_asm/highvec"
	"github.com/hashlanes/hashlanes/internal/kernel/_asm/lanewrap"
	"github.com/hashlanes/hashlanes/internal/kernel/_asm/sha2"
	"github.com/hashlanes/hashlanes/internal/kernel/sha256/rounds"
	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
)

func main() {
	ConstraintExpr("amd64,!purego")
	shani()
	shaniX2()
	shaniX4()
	avx2()
	avx512()
	zmm()
	hybrid()
	highvec.For("blockSHANIx2AVX512YMMx8")
	batchSHANIx4()
	batchAVX512()
	batchZMM()
	// The Go side of the kernels: wrappers and the package's lists.
	lanewrap.Rows(lanewrap.Kernel{Go: "SHANIx2", Level: "Generic", Needs: "SHA", Lanes: 2}, 8)
	lanewrap.Rows(lanewrap.Kernel{Go: "SHANIx4", Level: "Generic", Needs: "SHA", Lanes: 4}, 8)
	lanewrap.Lanes(lanewrap.Kernel{Go: "AVX2x8", Level: "AVX2", Lanes: 8}, 8, 32)
	lanewrap.Lanes(lanewrap.Kernel{Go: "AVX512YMMx16", Level: "AVX512", Lanes: 16}, 8, 32)
	lanewrap.Lanes(lanewrap.Kernel{Go: "AVX512ZMMx16", Level: "AVX512", Lanes: 16}, 8, 32)
	lanewrap.Hybrid(lanewrap.Kernel{Go: "SHANIx2AVX512YMMx8", Name: "shanix2+avx512ymmx8", Level: "AVX512", Needs: "SHA", Lanes: 10}, 8, 4*hybridPasses)
	lanewrap.Batch(lanewrap.Kernel{Go: "SHANIx4", Level: "AVX2", Needs: "SHA", Lanes: 4}, true)
	lanewrap.Batch(lanewrap.Kernel{Go: "AVX512YMMx16", Level: "AVX512", Lanes: 16}, true)
	lanewrap.Batch(lanewrap.Kernel{Go: "AVX512ZMMx16", Level: "AVX512", Lanes: 16}, true)
	Generate()
	lanewrap.Write("sha256")
}

// constTable is the 64 round constants.
func constTable() Mem {
	k := make([]uint64, len(rounds.K))
	for i, v := range rounds.K {
		k[i] = uint64(v)
	}
	return sha2.SHA256.Consts("sha256consts", k)
}

// byteSwapMask reverses the bytes of each 32-bit word.
func byteSwapMask() Mem { return sha2.SHA256.ByteSwapMask("sha256bswap") }
