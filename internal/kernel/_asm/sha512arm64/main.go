// Command sha512arm64 generates the arm64 SHA-512 kernel of
// internal/kernel/sha512 that interleaves two streams on the SHA-512
// instructions of the crypto extensions (SHA512H, SHA512H2, SHA512SU0,
// SHA512SU1; Armv8.2, HasSHA512): a stream's two rounds a step are a
// chain through SHA512H and SHA512H2, and the other stream's steps fill
// the pipe while it waits. A stream takes 13 vector registers (its state
// rotating through five, its message in eight), so two fit beside three
// shared temporaries and the round constants; a third would not. The
// standard library's kernel runs a lone stream. avo writes amd64 only, so
// this program writes the Plan 9 arm64 text itself (arm64text).
package main

import (
	"fmt"

	"github.com/hashlanes/hashlanes/internal/kernel/_asm/arm64text"
	"github.com/hashlanes/hashlanes/internal/kernel/_asm/lanewrap"
	"github.com/hashlanes/hashlanes/internal/kernel/sha512/rounds"
)

// streams is the streams the kernel interleaves.
const streams = 2

// Registers: stream k's state in V(13k)..V(13k+4), four of them holding
// (a,b), (c,d), (e,f), (g,h) in an order that rotates each step, its
// message words in V(13k+5)..V(13k+12); the temporaries and the step's
// round constants are shared. The chaining value stays in the rows in
// memory, read back at each block's end.
const (
	perRegs = 13
	rMsg    = 5
	vT0     = 26
	vT1     = 27
	vT2     = 28
	vK      = 29
)

var v, ptr = arm64text.V, arm64text.StreamPtr

// row is the register of stream k's row of the state.
func row(k int) string { return fmt.Sprintf("R%d", 6+k) }

// stateAt is the state registers (i0..i4, from stream k's base) at step
// r: each step's result moves the roles one place along.
func stateAt(r int) [5]int {
	s := [5]int{0, 1, 2, 3, 4}
	for range r {
		s = [5]int{s[3], s[0], s[4], s[2], s[1]}
	}
	return s
}

// step writes step r (rounds 2r and 2r+1) of stream k; the first 32 steps
// also extend the message by two words.
func step(a *arm64text.File, r, k int) {
	b := perRegs * k
	st := stateAt(r)
	i := func(j int) string { return v(b + st[j]) }
	w := func(j int) string { return v(b + rMsg + (r+j)%8) }
	in0, in1, in2, in3, in4 := w(0), w(1), w(7), w(4), w(5)
	a.Op("VADD %s.D2, %s.D2, %s.D2", in0, v(vK), v(vT0))
	a.Op("VEXT $8, %s.B16, %s.B16, %s.B16", i(3), i(2), v(vT1))
	a.Op("VEXT $8, %s.B16, %s.B16, %s.B16", v(vT0), v(vT0), v(vT0))
	a.Op("VEXT $8, %s.B16, %s.B16, %s.B16", i(2), i(1), v(vT2))
	a.Op("VADD %s.D2, %s.D2, %s.D2", v(vT0), i(3), i(3))
	update := r < 32
	if update {
		a.Op("VEXT $8, %s.B16, %s.B16, %s.B16", in4, in3, v(vT0))
		a.Op("SHA512SU0 %s.D2, %s.D2", in1, in0)
	}
	a.Op("SHA512H %s.D2, %s, %s", v(vT2), v(vT1), i(3))
	if update {
		a.Op("SHA512SU1 %s.D2, %s.D2, %s.D2", v(vT0), in2, in0)
	}
	a.Op("VADD %s.D2, %s.D2, %s.D2", i(3), i(1), i(4))
	a.Op("SHA512H2 %s.D2, %s, %s", i(0), i(1), i(3))
}

// regs names four consecutive registers from n, as VLD1 and VST1 take them.
func regs(n int) string {
	return fmt.Sprintf("[%s.D2, %s.D2, %s.D2, %s.D2]", v(n), v(n+1), v(n+2), v(n+3))
}

func kernel(a *arm64text.File) {
	name := fmt.Sprintf("blockSHA512x%d", streams)
	setup := func() {
		for k := range streams {
			a.Op("ADD $%d, R0, %s", 64*k, row(k))
		}
	}
	block := func() {
		a.Op("MOVD $·sha512K<>(SB), R4")
		for k := range streams {
			b := perRegs * k
			a.Op("VLD1 (%s), %s", row(k), regs(b))
			a.Op("VLD1.P 64(%s), %s", ptr(k), regs(b+rMsg))
			a.Op("VLD1.P 64(%s), %s", ptr(k), regs(b+rMsg+4))
			for j := range 8 {
				a.Op("VREV64 %s.B16, %s.B16", v(b+rMsg+j), v(b+rMsg+j))
			}
		}
		for r := range 40 {
			a.Op("VLD1.P 16(R4), [%s.D2] // K[%d..%d]", v(vK), 2*r, 2*r+1)
			for k := range streams {
				step(a, r, k)
			}
		}
		// After 40 steps the roles are back where they began; the message
		// registers are free for the chaining value.
		for k := range streams {
			b := perRegs * k
			a.Op("VLD1 (%s), %s", row(k), regs(b+rMsg))
			for j := range 4 {
				a.Op("VADD %s.D2, %s.D2, %s.D2", v(b+rMsg+j), v(b+j), v(b+j))
			}
			a.Op("VST1 %s, (%s)", regs(b), row(k))
		}
	}
	a.RowKernel(name, "[8]uint64", streams,
		fmt.Sprintf("%s hashes nblocks blocks of %d streams on the crypto extensions, a row of 8 words each.", name, streams),
		setup, block, nil)
}

func main() {
	arm64text.Main("sha512", "sha512arm64", func(a *arm64text.File) {
		a.Printf("\n")
		for i, k := range rounds.K {
			a.Printf("DATA ·sha512K<>+%d(SB)/8, $0x%016x\n", 8*i, k)
		}
		a.Printf("GLOBL ·sha512K<>(SB), RODATA|NOPTR, $%d\n", 8*len(rounds.K))
		kernel(a)
		lanewrap.RowsOf(lanewrap.Kernel{Go: fmt.Sprintf("SHA512x%d", streams), Level: "NEON", Needs: "SHA512", Lanes: streams}, 8, 64)
	})
}
