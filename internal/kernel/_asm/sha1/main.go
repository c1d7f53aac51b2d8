// Command sha1 generates the amd64 SHA-1 kernels of internal/kernel/sha1.
package main

import (
	"github.com/hashlanes/hashlanes/internal/kernel/_asm/highvec"
	"github.com/hashlanes/hashlanes/internal/kernel/_asm/lanewrap"
	"github.com/hashlanes/hashlanes/internal/kernel/_asm/sha2"
	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
)

func main() {
	ConstraintExpr("amd64,!purego")
	shani(1)
	shani(2)
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
	lanewrap.Lanes(lanewrap.Kernel{Go: "AVX2x8", Level: "AVX2", Lanes: 8}, 5, 32)
	lanewrap.Lanes(lanewrap.Kernel{Go: "AVX512YMMx16", Level: "AVX512", Lanes: 16}, 5, 32)
	lanewrap.Lanes(lanewrap.Kernel{Go: "AVX512ZMMx16", Level: "AVX512", Lanes: 16}, 5, 32)
	lanewrap.Hybrid(lanewrap.Kernel{Go: "SHANIx2AVX512YMMx8", Name: "shanix2+avx512ymmx8", Level: "AVX512", Needs: "SHA", Lanes: 10}, 5, hybridPasses)
	lanewrap.Batch(lanewrap.Kernel{Go: "SHANIx4", Level: "AVX2", Needs: "SHA", Lanes: 4}, false)
	lanewrap.Batch(lanewrap.Kernel{Go: "AVX512YMMx16", Level: "AVX512", Lanes: 16}, false)
	lanewrap.Batch(lanewrap.Kernel{Go: "AVX512ZMMx16", Level: "AVX512", Lanes: 16}, false)
	Generate()
	lanewrap.Write("sha1")
}

// constTable is the four round constants (FIPS 180-4, 4.2.1), one per 20
// rounds, in the SHA-2 generators' table format for 32-bit words.
func constTable() Mem {
	return sha2.SHA256.Consts("sha1consts", []uint64{0x5a827999, 0x6ed9eba1, 0x8f1bbcdc, 0xca62c1d6})
}

// constTable8 is the four round constants, each repeated for 8 lanes: AVX2
// has no broadcast memory operand.
func constTable8() Mem {
	k := make([]uint64, 0, 32)
	for _, v := range []uint64{0x5a827999, 0x6ed9eba1, 0x8f1bbcdc, 0xca62c1d6} {
		for range 8 {
			k = append(k, v)
		}
	}
	return sha2.SHA256.Consts("sha1consts8", k)
}

// byteSwapMask reverses the bytes of each 32-bit word (SHA-1's message is
// big-endian, like SHA-256's).
func byteSwapMask() Mem { return sha2.SHA256.ByteSwapMask("sha1bswap") }
