// Command sha1arm64 generates the arm64 SHA-1 kernels of
// internal/kernel/sha1 that interleave two and three streams on the
// crypto extensions (SHA1C, SHA1P, SHA1M, SHA1H, SHA1SU0, SHA1SU1): one
// stream's rounds are a chain through the SHA1C/P/M of each group of
// four, and the other streams' groups fill the pipe while it waits. The
// standard library's kernel runs a lone stream. avo writes amd64 only, so
// this program writes the Plan 9 arm64 text itself (arm64text).
package main

import (
	"fmt"

	"github.com/hashlanes/hashlanes/internal/kernel/_asm/arm64text"
	"github.com/hashlanes/hashlanes/internal/kernel/_asm/lanewrap"
)

// streamCounts are the kernels generated.
var streamCounts = []int{2, 3}

// Registers of stream k, from base 8k: the working abcd and e, abcd's
// copy that SHA1H reads, W+K, and the four message registers. The
// chaining value stays in the rows in memory, read back at each block's
// end. V28-V31 hold the four round constants, shared by the streams.
const (
	rABCD   = 0
	rE      = 1
	rCopy   = 2
	rWK     = 3
	rMsg    = 4
	perRegs = 8
	vK      = 28
)

var v, ptr = arm64text.V, arm64text.StreamPtr

// roundFn is the instruction of group g (four rounds): Ch for rounds
// 0-19, parity for 20-39 and 60-79, Maj for 40-59.
func roundFn(g int) string {
	switch g / 5 {
	case 0:
		return "SHA1C"
	case 2:
		return "SHA1M"
	}
	return "SHA1P"
}

func kernel(a *arm64text.File, n int) {
	name := fmt.Sprintf("blockSHA1x%d", n)
	setup := func() {
		a.Op("MOVD $·sha1K<>(SB), R5")
		a.Op("VLD1 (R5), [%s.S4]", v(vK-1))
		for j := range 4 {
			a.Op("VDUP %s.S[%d], %s.S4", v(vK-1), j, v(vK+j))
		}
	}
	block := func() {
		for k := range n {
			b := perRegs * k
			a.Op("FMOVQ %d(R0), F%d", 32*k, b+rABCD)
			a.Op("FMOVS %d(R0), F%d", 32*k+16, b+rE)
			for j := range 4 {
				a.Op("VLD1.P 16(%s), [%s.B16]", ptr(k), v(b+rMsg+j))
				a.Op("VREV32 %s.B16, %s.B16", v(b+rMsg+j), v(b+rMsg+j))
			}
			a.Op("VMOV %s.B16, %s.B16", v(b+rABCD), v(b+rCopy))
		}
		for g := range 20 {
			for k := range n {
				b := perRegs * k
				m := func(j int) string { return v(b + rMsg + j%4) }
				a.Op("VADD %s.S4, %s.S4, %s.S4", v(vK+g/5), m(g), v(b+rWK))
				if g < 16 {
					a.Op("SHA1SU0 %s.S4, %s.S4, %s.S4", m(g+2), m(g+1), m(g))
				}
				a.Op("%s %s.S4, %s, %s", roundFn(g), v(b+rWK), v(b+rE), v(b+rABCD))
				a.Op("SHA1H %s, %s", v(b+rCopy), v(b+rE))
				a.Op("VMOV %s.B16, %s.B16", v(b+rABCD), v(b+rCopy))
				if g < 16 {
					a.Op("SHA1SU1 %s.S4, %s.S4", m(g+3), m(g))
				}
			}
		}
		// Add the block's result to the chaining value in the rows; the
		// message registers are free for the old value.
		for k := range n {
			b := perRegs * k
			a.Op("FMOVQ %d(R0), F%d", 32*k, b+rMsg)
			a.Op("FMOVS %d(R0), F%d", 32*k+16, b+rMsg+1)
			a.Op("VADD %s.S4, %s.S4, %s.S4", v(b+rMsg), v(b+rABCD), v(b+rABCD))
			a.Op("VADD %s.S4, %s.S4, %s.S4", v(b+rMsg+1), v(b+rE), v(b+rE))
			a.Op("FMOVQ F%d, %d(R0)", b+rABCD, 32*k)
			a.Op("FMOVS F%d, %d(R0)", b+rE, 32*k+16)
		}
	}
	a.RowKernel(name, "[8]uint32", n,
		fmt.Sprintf("%s hashes nblocks blocks of %d streams on the crypto extensions, a row of 8 words each (a..e, then padding).", name, n),
		setup, block, nil)
}

func main() {
	arm64text.Main("sha1", "sha1arm64", func(a *arm64text.File) {
		a.Printf("\n")
		for i, k := range []uint32{0x5a827999, 0x6ed9eba1, 0x8f1bbcdc, 0xca62c1d6} {
			a.Printf("DATA ·sha1K<>+%d(SB)/4, $0x%08x\n", 4*i, k)
		}
		a.Printf("GLOBL ·sha1K<>(SB), RODATA|NOPTR, $16\n")
		for _, n := range streamCounts {
			kernel(a, n)
			lanewrap.Rows(lanewrap.Kernel{Go: fmt.Sprintf("SHA1x%d", n), Level: "NEON", Needs: "SHA", Lanes: n}, 8)
		}
	})
}
