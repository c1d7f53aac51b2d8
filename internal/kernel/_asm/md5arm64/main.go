// Command md5arm64 generates the arm64 MD5 kernels of internal/kernel/md5:
// lanes of 4, 8, 12 and 16 streams, in groups of four lanes to a 128-bit
// NEON register, the groups' steps interleaved, and two streams in
// general registers (scalar.go). avo writes amd64 only, so this program
// writes the Plan 9 arm64 text itself (arm64text), in the assembler's own
// mnemonics but for NEON's ORN, which it lacks: that one is a WORD, its
// encoding checked against x/arch's disassembler.
//
// One group's 64 dependent steps are bound by their chain; interleaving
// groups fills the vector pipes until they are the bound (docs/figures.md,
// "MD5 and the SHA family on arm64").
package main

import (
	"fmt"

	"github.com/hashlanes/hashlanes/internal/kernel/_asm/arm64text"
	"github.com/hashlanes/hashlanes/internal/kernel/_asm/lanewrap"
	"github.com/hashlanes/hashlanes/internal/kernel/md5/rounds"
)

// laneCounts are the kernels generated: lanes, four to a group.
var laneCounts = []int{4, 8, 12, 16}

// scratchWords is what a kernel call needs of its frame per group: the
// transposed message (16 vectors) and the chaining value saved for the
// block's final additions (4 vectors), 4 words a vector.
const scratchWords = (16 + 4) * 4

// Registers. V0-V15 hold the groups' chaining values (group g's a, b, c,
// d in V4g..V4g+3 at the start of a block), V16-V27 three temporaries a
// group, V28 the step's constant.
const vK = 28

// lanePtr is the register of lane i's message pointer: R4-R17 and R19-R20
// (R18 is the platform's).
func lanePtr(i int) string {
	if i < 14 {
		return fmt.Sprintf("R%d", 4+i)
	}
	return fmt.Sprintf("R%d", 19+i-14)
}

// encodeORN is ORN Vd.16B, Vn.16B, Vm.16B (Vd = Vn | ^Vm), which Go's
// assembler has no mnemonic for.
func encodeORN(d, n, m int) uint32 {
	return 0x4ee01c00 | uint32(m)<<16 | uint32(n)<<5 | uint32(d)
}

// orn is the instruction text of encodeORN.
func orn(d, n, m int) string {
	return fmt.Sprintf("WORD $0x%08x // ORN V%d.B16, V%d.B16, V%d.B16", encodeORN(d, n, m), d, n, m)
}

var v = arm64text.V

func s4(n int) string { return v(n) + ".S4" }
func b16(n int) string {
	return v(n) + ".B16"
}
func d2(n int) string { return v(n) + ".D2" }
func f(n int) string  { return fmt.Sprintf("F%d", n) }

// msgOff and savedOff are the frame's offsets (from R3) of group g's
// message word w and of its saved chaining word w.
func msgOff(g, w int) int           { return (g*16 + w) * 16 }
func savedOff(g, w, groups int) int { return (groups*16 + g*4 + w) * 16 }

// kernel writes blockNEONx<lanes>.
func kernel(a *arm64text.File, lanes int) {
	groups := lanes / 4
	name := fmt.Sprintf("blockNEONx%d", lanes)
	// The scratch is the frame, from 16(RSP) (16-byte aligned; 0(RSP)
	// holds the return address).
	a.Func(name, fmt.Sprintf("(s *[4][%d]uint32, ptrs *[%d]*byte, nblocks int)", lanes, lanes),
		fmt.Sprintf("%s hashes nblocks blocks of %d lanes with NEON, 4 words of each lane's state, word-major.", name, lanes),
		groups*scratchWords*4+16, 24)
	a.Op("MOVD s+0(FP), R0")
	a.Op("MOVD ptrs+8(FP), R1")
	a.Op("MOVD nblocks+16(FP), R2")
	a.Op("MOVD RSP, R3")
	a.Op("ADD $16, R3, R3")
	a.Op("CBZ R2, %s_done", name)
	for i := range lanes {
		a.Op("MOVD %d(R1), %s", 8*i, lanePtr(i))
	}
	a.Comment("The chaining values: row w of s holds word w of every lane.")
	for g := range groups {
		for w := range 4 {
			a.Op("FMOVQ %d(R0), %s", (w*lanes+4*g)*4, f(4*g+w))
		}
	}
	a.Label(name + "_block")
	// The message: 16 bytes of each of a group's four lanes at a time,
	// transposed into words w..w+3 of the four lanes.
	for g := range groups {
		for q := range 4 {
			for l := range 4 {
				a.Op("VLD1.P 16(%s), [%s]", lanePtr(4*g+l), s4(16+l))
			}
			a.Op("VTRN1 %s, %s, %s", s4(17), s4(16), s4(20))
			a.Op("VTRN2 %s, %s, %s", s4(17), s4(16), s4(21))
			a.Op("VTRN1 %s, %s, %s", s4(19), s4(18), s4(22))
			a.Op("VTRN2 %s, %s, %s", s4(19), s4(18), s4(23))
			a.Op("VTRN1 %s, %s, %s", d2(22), d2(20), d2(24))
			a.Op("VTRN1 %s, %s, %s", d2(23), d2(21), d2(25))
			a.Op("VTRN2 %s, %s, %s", d2(22), d2(20), d2(26))
			a.Op("VTRN2 %s, %s, %s", d2(23), d2(21), d2(27))
			for w := range 4 {
				a.Op("FMOVQ %s, %d(R3)", f(24+w), msgOff(g, 4*q+w))
			}
		}
		for w := range 4 {
			a.Op("FMOVQ %s, %d(R3)", f(4*g+w), savedOff(g, w, groups))
		}
	}
	regs := make([][4]int, groups) // a, b, c, d of each group
	for g := range regs {
		regs[g] = [4]int{4 * g, 4*g + 1, 4*g + 2, 4*g + 3}
	}
	for i := range 64 {
		round := i / 16
		sh := rounds.Shift[round][i%4]
		a.Comment("step %d", i)
		a.Op("MOVD $0x%08x, R23", rounds.K[i])
		a.Op("VDUP R23, %s", s4(vK))
		for g := range groups {
			ra, rb, rc, rd := regs[g][0], regs[g][1], regs[g][2], regs[g][3]
			tm, tf, tr := 16+3*g, 17+3*g, 18+3*g
			a.Op("FMOVQ %d(R3), %s", msgOff(g, rounds.Word(i)), f(tm))
			// Two vector operations each: a step's b, c and d all live
			// on, so a bit select works on a copy.
			switch round {
			case 0: // F: c where b, else d
				a.Op("VORR %s, %s, %s", b16(rd), b16(rd), b16(tf))
				a.Op("VBIT %s, %s, %s", b16(rb), b16(rc), b16(tf))
			case 1: // G: b where d, else c
				a.Op("VORR %s, %s, %s", b16(rc), b16(rc), b16(tf))
				a.Op("VBIT %s, %s, %s", b16(rd), b16(rb), b16(tf))
			case 2: // H = b ^ c ^ d
				a.Op("VEOR %s, %s, %s", b16(rc), b16(rb), b16(tf))
				a.Op("VEOR %s, %s, %s", b16(rd), b16(tf), b16(tf))
			case 3: // I = c ^ (b | ^d)
				a.Op("%s", orn(tf, rb, rd))
				a.Op("VEOR %s, %s, %s", b16(rc), b16(tf), b16(tf))
			}
			// M+K does not wait for a, which shortens a step's chain.
			a.Op("VADD %s, %s, %s", s4(vK), s4(tm), s4(tm))
			a.Op("VADD %s, %s, %s", s4(tm), s4(ra), s4(ra))
			a.Op("VADD %s, %s, %s", s4(tf), s4(ra), s4(ra))
			if sh == 16 { // swapping a word's halves is one operation
				a.Op("VREV32 %s.H8, %s.H8", v(ra), v(tr))
			} else {
				a.Op("VSHL $%d, %s, %s", sh, s4(ra), s4(tr))
				a.Op("VSRI $%d, %s, %s", 32-sh, s4(ra), s4(tr))
			}
			a.Op("VADD %s, %s, %s", s4(rb), s4(tr), s4(ra))
			regs[g] = [4]int{rd, ra, rb, rc}
		}
	}
	a.Comment("The block's final additions.")
	for g := range groups {
		for w := range 4 {
			a.Op("FMOVQ %d(R3), %s", savedOff(g, w, groups), f(16+w))
			a.Op("VADD %s, %s, %s", s4(16+w), s4(regs[g][w]), s4(regs[g][w]))
		}
	}
	a.Op("SUBS $1, R2, R2")
	a.Op("BNE %s_block", name)
	for g := range groups {
		for w := range 4 {
			a.Op("FMOVQ %s, %d(R0)", f(regs[g][w]), (w*lanes+4*g)*4)
		}
	}
	a.Label(name + "_done")
	a.Op("RET")
}

func main() {
	arm64text.Main("md5", "md5arm64", func(a *arm64text.File) {
		scalarKernel(a)
		lanewrap.Rows(lanewrap.Kernel{Go: fmt.Sprintf("ARM64x%d", scalarStreams), Level: "Generic", Lanes: scalarStreams}, 4)
		for _, n := range laneCounts {
			kernel(a, n)
			lanewrap.Lanes(lanewrap.Kernel{Go: fmt.Sprintf("NEONx%d", n), Level: "NEON", Lanes: n}, 4, 32)
		}
	})
}
