// Command blake3 generates internal/blake3tree's kernels: the BLAKE3
// compression of 16 chunks at once, one chunk a lane of the ZMM registers
// (whole chunks, or each to its own length), of 16 parent nodes at once
// from 32 chaining values, and of one chunk in vector rows; and the same
// on AVX2, 8 lanes a call (avx2.go).
//
// A block's state is 16 ZMM registers, word i of every lane in register i;
// the message is read from memory by the additions (a 64-byte row a word,
// the 16 lanes' words in it), so the other 16 registers are free for the
// transpose of the next block's message, spread through this block's
// rounds. The rotations are VPRORD; each G step is an addition, an xor or
// a rotation on one of the two 512-bit ports, 800 a block: the bound is
// about 400 cycles for 16 KiB... of 16 blocks of 64 bytes, 0.39 cycles a
// byte, before the transpose's shuffles.
package main

import (
	"github.com/hashlanes/hashlanes/internal/kernel/_asm/transpose"
	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	"github.com/mmcloughlin/avo/reg"
)

// iv is BLAKE3's initial value (SHA-256's).
var iv = [8]uint32{0x6A09E667, 0xBB67AE85, 0x3C6EF372, 0xA54FF53A, 0x510E527F, 0x9B05688C, 0x1F83D9AB, 0x5BE0CD19}

// permutation is the message permutation applied after each round.
var permutation = [16]int{2, 6, 3, 10, 7, 0, 4, 13, 1, 11, 12, 5, 9, 14, 15, 8}

const (
	flagChunkStart = 1 << 0
	flagChunkEnd   = 1 << 1
	flagParent     = 1 << 2
)

func main() {
	ConstraintExpr("amd64,!purego")
	chunks16(false)
	chunks16(true)
	parents16()
	chunk1()
	chunks8(false)
	chunks8(true)
	parents8()
	Generate()
}

// ivConst is the IV in read-only data, declared on first use.
func ivConst() Mem {
	if ivMem == nil {
		m := GLOBL("blake3iv", RODATA|NOPTR)
		for i, w := range iv {
			DATA(4*i, U32(w))
		}
		ivMem = &m
	}
	return *ivMem
}

var ivMem *Mem

// rounds runs BLAKE3's seven rounds on the state v, message word j at
// msg(j) (a row in memory or a register), emitting k instructions of
// pipe between the steps of each half round.
func rounds(v [16]reg.VecVirtual, msg func(j int) Op, pipe *transpose.Deferred) {
	schedule(msg, func(g [4][4]int, m [4][2]Op) { half(v, g, m, pipe) })
}

// schedule calls half for the seven rounds' columns and diagonals, with
// their message words, permuted after each round.
func schedule(msg func(j int) Op, half func(g [4][4]int, m [4][2]Op)) {
	s := [16]int{}
	for i := range s {
		s[i] = i
	}
	for range 7 {
		half([4][4]int{{0, 4, 8, 12}, {1, 5, 9, 13}, {2, 6, 10, 14}, {3, 7, 11, 15}},
			[4][2]Op{{msg(s[0]), msg(s[1])}, {msg(s[2]), msg(s[3])}, {msg(s[4]), msg(s[5])}, {msg(s[6]), msg(s[7])}})
		half([4][4]int{{0, 5, 10, 15}, {1, 6, 11, 12}, {2, 7, 8, 13}, {3, 4, 9, 14}},
			[4][2]Op{{msg(s[8]), msg(s[9])}, {msg(s[10]), msg(s[11])}, {msg(s[12]), msg(s[13])}, {msg(s[14]), msg(s[15])}})
		var p [16]int
		for i := range p {
			p[i] = s[permutation[i]]
		}
		s = p
	}
}

// half is four G functions, their steps interleaved so that the four
// chains overlap.
func half(v [16]reg.VecVirtual, g [4][4]int, m [4][2]Op, pipe *transpose.Deferred) {
	step := func(f func(a, b, c, d reg.VecVirtual, x, y Op)) {
		for i := range 4 {
			f(v[g[i][0]], v[g[i][1]], v[g[i][2]], v[g[i][3]], m[i][0], m[i][1])
		}
		if pipe != nil {
			pipe.Emit(1)
		}
	}
	mix := func(first bool, r1, r2 uint8) {
		step(func(a, b, c, d reg.VecVirtual, x, y Op) {
			VPADDD(b, a, a)
			if first {
				VPADDD(x, a, a)
			} else {
				VPADDD(y, a, a)
			}
		})
		step(func(a, b, c, d reg.VecVirtual, x, y Op) { VPXORD(a, d, d); VPRORD(U8(r1), d, d) })
		step(func(a, b, c, d reg.VecVirtual, x, y Op) { VPADDD(d, c, c) })
		step(func(a, b, c, d reg.VecVirtual, x, y Op) { VPXORD(c, b, b); VPRORD(U8(r2), b, b) })
	}
	mix(true, 16, 12)
	mix(false, 8, 7)
}
