package main

import (
	"fmt"

	"github.com/hashlanes/hashlanes/internal/kernel/_asm/arm64text"
	"github.com/hashlanes/hashlanes/internal/kernel/md5/rounds"
)

// scalarStreams is the streams the scalar kernel interleaves.
const scalarStreams = 2

// scalarKernel writes blockARM64x2: two streams in general registers,
// their steps interleaved. One stream's step is a chain of about five
// dependent instructions after b is known; a second stream's fills the
// integer pipes meanwhile, which two or three streams in a four-lane NEON
// group (one vector step a lane-step) cannot.
//
// Registers: stream k's a, b, c, d in R5+6k..R8+6k and two temporaries
// after them, its message pointer in R2+k; R17 holds the step's constant,
// shared. The message words are loaded as each step needs them.
func scalarKernel(a *arm64text.File) {
	name := fmt.Sprintf("blockARM64x%d", scalarStreams)
	a.Func(name, fmt.Sprintf("(s *[%d][4]uint32, ptrs *[%d]*byte, nblocks int)", scalarStreams, scalarStreams),
		fmt.Sprintf("%s hashes nblocks blocks of %d streams in general registers, a row of 4 words each.", name, scalarStreams), 0, 24)
	r := func(n int) string { return fmt.Sprintf("R%d", n) }
	ptr := func(k int) string { return r(2 + k) }
	base := func(k int) int { return 5 + 6*k }
	const kReg = "R17"
	a.Op("MOVD s+0(FP), R0")
	a.Op("MOVD ptrs+8(FP), R1")
	a.Op("MOVD nblocks+16(FP), R4")
	a.Op("CBZ R4, %s_done", name)
	var regs [scalarStreams][4]string
	for k := range scalarStreams {
		a.Op("MOVD %d(R1), %s", 8*k, ptr(k))
		for w := range 4 {
			regs[k][w] = r(base(k) + w)
			a.Op("MOVWU %d(R0), %s", 16*k+4*w, regs[k][w])
		}
	}
	a.Label(name + "_block")
	for i := range 64 {
		a.Op("MOVW $0x%08x, %s", rounds.K[i], kReg)
		for k := range scalarStreams {
			ra, rb, rc, rd := regs[k][0], regs[k][1], regs[k][2], regs[k][3]
			t0, t1 := r(base(k)+4), r(base(k)+5)
			// a += M[g] + K[i], off the chain through b.
			a.Op("MOVWU %d(%s), %s", 4*rounds.Word(i), ptr(k), t0)
			a.Op("ADDW %s, %s, %s", kReg, t0, t0)
			a.Op("ADDW %s, %s, %s", t0, ra, ra)
			switch i / 16 {
			case 0: // F = (b & c) | (d &^ b)
				a.Op("ANDW %s, %s, %s", rb, rc, t0)
				a.Op("BICW %s, %s, %s", rb, rd, t1)
				a.Op("ORRW %s, %s, %s", t0, t1, t0)
				a.Op("ADDW %s, %s, %s", t0, ra, ra)
			case 1: // G = (b & d) | (c &^ d); the halves are disjoint, so added apart
				a.Op("BICW %s, %s, %s", rd, rc, t1)
				a.Op("ADDW %s, %s, %s", t1, ra, ra)
				a.Op("ANDW %s, %s, %s", rd, rb, t0)
				a.Op("ADDW %s, %s, %s", t0, ra, ra)
			case 2: // H = b ^ c ^ d
				a.Op("EORW %s, %s, %s", rc, rd, t1)
				a.Op("EORW %s, %s, %s", rb, t1, t1)
				a.Op("ADDW %s, %s, %s", t1, ra, ra)
			case 3: // I = c ^ (b | ^d)
				a.Op("ORNW %s, %s, %s", rd, rb, t1)
				a.Op("EORW %s, %s, %s", rc, t1, t1)
				a.Op("ADDW %s, %s, %s", t1, ra, ra)
			}
			a.Op("RORW $%d, %s, %s", 32-rounds.Shift[i/16][i%4], ra, ra)
			a.Op("ADDW %s, %s, %s", rb, ra, ra)
			// The new value is b; the roles move along.
			regs[k] = [4]string{rd, ra, rb, rc}
		}
	}
	for k := range scalarStreams {
		t0 := r(base(k) + 4)
		for w := range 4 {
			a.Op("MOVWU %d(R0), %s", 16*k+4*w, t0)
			a.Op("ADDW %s, %s, %s", t0, regs[k][w], regs[k][w])
			a.Op("MOVW %s, %d(R0)", regs[k][w], 16*k+4*w)
		}
		a.Op("ADD $64, %s, %s", ptr(k), ptr(k))
	}
	a.Op("SUBS $1, R4, R4")
	a.Op("BNE %s_block", name)
	a.Label(name + "_done")
	a.Op("RET")
}
