// Command sha256arm64 generates the arm64 SHA-256 kernels of
// internal/kernel/sha256 that interleave two and three streams on the
// crypto extensions (SHA256H, SHA256H2, SHA256SU0, SHA256SU1): one
// stream's rounds are a chain through SHA256H, and a second or third
// stream's fill the pipe while the first waits. The standard library's
// kernel runs a lone stream. avo writes amd64 only, so this program writes
// the Plan 9 arm64 text itself (arm64text), in the assembler's own mnemonics.
package main

import (
	"fmt"

	"github.com/hashlanes/hashlanes/internal/kernel/_asm/arm64text"
	"github.com/hashlanes/hashlanes/internal/kernel/_asm/lanewrap"
	"github.com/hashlanes/hashlanes/internal/kernel/sha256/rounds"
)

// streamCounts are the kernels generated.
var streamCounts = []int{2, 3}

// Registers of stream k, from base 10k: the chaining value (abcd, efgh)
// as it was before the block, the working abcd and efgh, the four message
// registers, abcd's copy that SHA256H2 reads, and W+K. V30 is the round
// group's constant, shared by the streams.
const (
	rState  = 0
	rWork   = 2
	rMsg    = 4
	rCopy   = 8
	rWK     = 9
	vK      = 30
	perRegs = 10
)

var v = arm64text.V

func kernel(a *arm64text.File, n int) {
	name := fmt.Sprintf("blockSHA2x%d", n)
	ptr := arm64text.StreamPtr
	setup := func() {
		for k := range n {
			b := perRegs * k
			a.Op("FMOVQ %d(R0), F%d", 32*k, b+rState)
			a.Op("FMOVQ %d(R0), F%d", 32*k+16, b+rState+1)
		}
	}
	block := func() {
		a.Op("MOVD $·sha256K<>(SB), R5")
		for k := range n {
			b := perRegs * k
			for j := range 4 {
				a.Op("VLD1.P 16(%s), [%s.B16]", ptr(k), v(b+rMsg+j))
				a.Op("VREV32 %s.B16, %s.B16", v(b+rMsg+j), v(b+rMsg+j))
			}
			a.Op("VMOV %s.B16, %s.B16", v(b+rState), v(b+rWork))
			a.Op("VMOV %s.B16, %s.B16", v(b+rState+1), v(b+rWork+1))
			a.Op("VMOV %s.B16, %s.B16", v(b+rState), v(b+rCopy))
		}
		for i := range 16 {
			a.Op("VLD1.P 16(R5), [%s.S4] // K[%d..%d]", v(vK), 4*i, 4*i+3)
			for k := range n {
				b := perRegs * k
				m := func(j int) string { return v(b + rMsg + (j+4)%4) }
				a.Op("VADD %s.S4, %s.S4, %s.S4", v(vK), m(i), v(b+rWK))
				if i < 12 {
					a.Op("SHA256SU0 %s.S4, %s.S4", m(i+1), m(i))
				}
				if i >= 1 && i <= 12 {
					a.Op("SHA256SU1 %s.S4, %s.S4, %s.S4", m(i+2), m(i+1), m(i-1))
				}
				a.Op("SHA256H %s.S4, %s, %s", v(b+rWK), v(b+rWork+1), v(b+rWork))
				a.Op("SHA256H2 %s.S4, %s, %s", v(b+rWK), v(b+rCopy), v(b+rWork+1))
				a.Op("VMOV %s.B16, %s.B16", v(b+rWork), v(b+rCopy))
			}
		}
		for k := range n {
			b := perRegs * k
			a.Op("VADD %s.S4, %s.S4, %s.S4", v(b+rWork), v(b+rState), v(b+rState))
			a.Op("VADD %s.S4, %s.S4, %s.S4", v(b+rWork+1), v(b+rState+1), v(b+rState+1))
		}
	}
	finish := func() {
		for k := range n {
			b := perRegs * k
			a.Op("FMOVQ F%d, %d(R0)", b+rState, 32*k)
			a.Op("FMOVQ F%d, %d(R0)", b+rState+1, 32*k+16)
		}
	}
	a.RowKernel(name, "[8]uint32", n,
		fmt.Sprintf("%s hashes nblocks blocks of %d streams on the crypto extensions, a row of 8 words each.", name, n),
		setup, block, finish)
}

func main() {
	arm64text.Main("sha256", "sha256arm64", func(a *arm64text.File) {
		a.Printf("\n")
		for i, k := range rounds.K {
			a.Printf("DATA ·sha256K<>+%d(SB)/4, $0x%08x\n", 4*i, k)
		}
		a.Printf("GLOBL ·sha256K<>(SB), RODATA|NOPTR, $256\n")
		for _, n := range streamCounts {
			kernel(a, n)
			lanewrap.Rows(lanewrap.Kernel{Go: fmt.Sprintf("SHA2x%d", n), Level: "NEON", Needs: "SHA", Lanes: n}, 8)
		}
	})
}
