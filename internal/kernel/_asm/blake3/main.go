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
	"github.com/hashlanes/hashlanes/internal/kernel/_asm/stack"
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

// chunks16 compresses 16 whole chunks; with variable, 16 chunks each of
// its own length, up to its own last block (the lanes of several short
// messages, or their last chunks, which may be the root): a lane's state
// stops changing after its last block, which is the one that carries its
// CHUNK_END, its other last flags and its length, all picked per lane by
// opmasks.
func chunks16(variable bool) {
	const row = 64 // one message word of the 16 lanes
	name, sig := "compressChunks16", "func(cvs *[8][16]uint32, ptrs *[16]*byte, key *[8]uint32, ctr *[2][16]uint32, flags uint32)"
	if variable {
		name, sig = "compressChunksVar16", "func(cvs *[8][16]uint32, ptrs *[16]*byte, key *[8]uint32, ctr *[2][16]uint32, ends *[3][16]uint32, blocks int, flags uint32)"
	}
	TEXT(name, 0, sig)
	Pragma("noescape")
	if variable {
		Doc("compressChunksVar16 compresses 16 chunks at ptrs, lane i's counter in ctr[0][i] (low) and ctr[1][i] (high), from key with flags: lane i up to its block ends[0][i], whose length is ends[1][i] and whose flags also have ends[2][i] (CHUNK_END and, for a root, ROOT). It runs blocks blocks, one more than the largest ends[0][i], reading that many 64-byte blocks at every lane's pointer, and writes the chaining values (a root's first output words) word-major to cvs.")
	} else {
		Doc("compressChunks16 compresses the 16 chunks of 1 KiB at ptrs, lane i's counter in ctr[0][i] (low) and ctr[1][i] (high), from key with flags, and writes their chaining values word-major to cvs.")
	}
	bufs := stack.Aligned(2 * 16 * row)
	// The chaining values before a block (variable), addressed from the
	// stack pointer, not from a register of their own: the kernel uses
	// all but one. They are stored and read back once a block.
	var saved Mem
	if variable {
		saved = AllocLocal(8 * 64)
	}
	cvs := Load(Param("cvs"), GP64())
	pp := Load(Param("ptrs"), GP64())
	kp := Load(Param("key"), GP64())
	cp := Load(Param("ctr"), GP64())
	flags := Load(Param("flags"), GP32())
	ivp := GP64()
	LEAQ(ivConst(), ivp)
	nb := GP64()
	var ends reg.Register
	if variable {
		ends = Load(Param("ends"), GP64())
		Load(Param("blocks"), nb)
	} else {
		MOVQ(U32(16), nb)
	}
	pl := transpose.NewPipeline(bufs, 16*row, 64, nb)

	var h [8]reg.VecVirtual
	for i := range h {
		h[i] = ZMM()
		VPBROADCASTD(Mem{Base: kp, Disp: 4 * i}, h[i])
	}
	var first transpose.Deferred
	message(&first, pp, pl.Off, pl.Cur)
	first.Flush()

	f := GP32() // this block's flags
	loop := name + "_loop"
	Label(loop)
	pl.Begin()
	MOVL(flags, f)
	// CHUNK_START on the first block, CHUNK_END on the last.
	// (The zero is made before the compares: XORL sets the flags.)
	zero := GP32()
	XORL(zero, zero)
	t := GP32()
	MOVL(U32(flagChunkStart), t)
	CMPQ(pl.Off, U8(0))
	CMOVLNE(zero, t)
	ORL(t, f)
	if !variable {
		u := GP32()
		MOVL(U32(flagChunkEnd), u)
		CMPQ(pl.Off, U32(15*64))
		CMOVLNE(zero, u)
		ORL(u, f)
	}

	var v [16]reg.VecVirtual
	copy(v[:8], h[:])
	for i := 8; i < 12; i++ {
		v[i] = ZMM()
		VPBROADCASTD(Mem{Base: ivp, Disp: 4 * (i - 8)}, v[i])
	}
	v[12], v[13], v[14], v[15] = ZMM(), ZMM(), ZMM(), ZMM()
	VMOVDQU32(Mem{Base: cp}, v[12])
	VMOVDQU32(Mem{Base: cp, Disp: 64}, v[13])
	bl := GP32()
	MOVL(U32(64), bl)
	VPBROADCASTD(bl, v[14])
	VPBROADCASTD(f, v[15])
	var done reg.Register
	if variable {
		// The lanes whose last block this is take its length and their
		// last flags; the lanes past their last (done) get their chaining
		// value back from saved after the rounds, which change every lane.
		idx := GP64()
		MOVQ(pl.Off, idx)
		SHRQ(U8(6), idx)
		b := ZMM()
		VPBROADCASTD(idx.As32(), b)
		end, d := K(), K()
		VPCMPEQD(Mem{Base: ends}, b, end)
		VPCMPUD(U8(6), Mem{Base: ends}, b, d) // block > ends[0][i]
		VMOVDQU32(Mem{Base: ends, Disp: 64}, end, v[14])
		VPORD(Mem{Base: ends, Disp: 128}, v[15], end, v[15])
		done = d
		for i := range h {
			VMOVDQU32(h[i], saved.Offset(64*i))
		}
	}

	var pipe transpose.Deferred
	message(&pipe, pp, pl.Next, pl.Nxt)
	// The same block of the next 16 chunks (16 KiB on, where a leaf's
	// chunks follow one another), fetched into the cache while this one
	// hashes: from memory, the kernel ran 30% slower than from the cache.
	// A prefetch past the end of a mapping does not fault.
	for i := range 16 {
		pipe = append(pipe, func() {
			PREFETCHT0(Mem{Base: transpose.LanePtr(pp, i), Index: pl.Off, Scale: 1, Disp: 16 * 64 * 16})
		})
	}
	cur := pl.Cur
	rounds(v, func(j int) Op { return Mem{Base: cur, Disp: row * j} }, &pipe)
	pipe.Flush()
	for i := range 8 {
		VPXORD(v[i+8], v[i], h[i])
		if variable {
			VMOVDQU32(saved.Offset(64*i), done, h[i])
		}
	}
	pl.End()
	DECQ(nb)
	JNZ(LabelRef(loop))
	for i := range h {
		VMOVDQU32(h[i], Mem{Base: cvs, Disp: 64 * i})
	}
	VZEROUPPER()
	RET()
}

// message queues the transpose of the block at offset off of the 16
// chunks at ptrs into buf, word j at row j.
func message(d *transpose.Deferred, ptrs, off, buf reg.Register) {
	transpose.DeferWords16(d, ptrs, off, 0, func(j int, r reg.VecVirtual) {
		VMOVDQA32(r, Mem{Base: buf, Disp: 64 * j})
	})
}

// parents16 compresses 16 parent nodes: parent p's children are
// chaining values 2p and 2p+1 of the 32 in two word-major groups. The
// message is made in registers (an even and an odd VPERMT2D a word of
// the children), so all 32 registers hold the message and the state.
func parents16() {
	TEXT("compressParents16", NOSPLIT, "func(out *[8][16]uint32, in *[2][8][16]uint32, key *[8]uint32, flags uint32)")
	Pragma("noescape")
	Doc("compressParents16 compresses the 16 parents of the 32 chaining values in (word-major, children 2p and 2p+1 of parent p) from key with flags, and writes theirs word-major to out.")
	out := Load(Param("out"), GP64())
	in := Load(Param("in"), GP64())
	kp := Load(Param("key"), GP64())
	flags := Load(Param("flags"), GP32())
	even := GLOBL("blake3even", RODATA|NOPTR)
	for i := range 16 {
		DATA(4*i, U32(uint32(2*i)))
	}
	odd := GLOBL("blake3odd", RODATA|NOPTR)
	for i := range 16 {
		DATA(4*i, U32(uint32(2*i+1)))
	}
	ie, io := ZMM(), ZMM()
	VMOVDQU32(even, ie)
	VMOVDQU32(odd, io)
	var m [16]reg.VecVirtual
	for j := range 8 {
		m[j], m[8+j] = ZMM(), ZMM()
		VMOVDQU32(Mem{Base: in, Disp: 64 * j}, m[j])
		VMOVDQU32(Mem{Base: in, Disp: 64 * j}, m[8+j])
		VPERMT2D(Mem{Base: in, Disp: 512 + 64*j}, ie, m[j])
		VPERMT2D(Mem{Base: in, Disp: 512 + 64*j}, io, m[8+j])
	}
	ivp := GP64()
	LEAQ(ivConst(), ivp)
	var v [16]reg.VecVirtual
	for i := range 8 {
		v[i] = ZMM()
		VPBROADCASTD(Mem{Base: kp, Disp: 4 * i}, v[i])
		v[8+i] = ZMM()
	}
	for i := range 4 {
		VPBROADCASTD(Mem{Base: ivp, Disp: 4 * i}, v[8+i])
	}
	VPXORD(v[12], v[12], v[12])
	VPXORD(v[13], v[13], v[13])
	bl := GP32()
	MOVL(U32(64), bl)
	VPBROADCASTD(bl, v[14])
	ORL(U32(flagParent), flags)
	VPBROADCASTD(flags, v[15])
	rounds(v, func(j int) Op { return m[j] }, nil)
	for i := range 8 {
		VPXORD(v[i+8], v[i], v[i])
		VMOVDQU32(v[i], Mem{Base: out, Disp: 64 * i})
	}
	VZEROUPPER()
	RET()
}

// chunk1 compresses the blocks of one chunk in the rows of four XMM
// registers (state words 4r..4r+3 in row r), for one short message, where
// no lanes are to be had: the G functions of a half round run on the four
// columns at once, the diagonals after a word rotation of rows 1-3. The
// block's 16 words sit in one ZMM register and each half round's two
// message vectors are VPERMDs of it, off the state's dependency chain.
func chunk1() {
	TEXT("compressChunk1", NOSPLIT, "func(cv *[8]uint32, buf *[1024]byte, blocks int, lastLen uint32, counter uint64, flags uint32, lastFlags uint32)")
	Pragma("noescape")
	Doc("compressChunk1 compresses blocks blocks of buf (the last of lastLen bytes, zero-padded) into cv, the chunk's counter and flags given, CHUNK_START on the first block and CHUNK_END and lastFlags on the last.")
	// The message vectors' word indices, round by round: columns' x and y,
	// diagonals' x and y.
	idx := GLOBL("blake3rows", RODATA|NOPTR)
	s := [16]int{}
	for i := range s {
		s[i] = i
	}
	for r := range 7 {
		for v, words := range [4][4]int{{0, 2, 4, 6}, {1, 3, 5, 7}, {8, 10, 12, 14}, {9, 11, 13, 15}} {
			for k, w := range words {
				DATA(256*r+64*v+4*k, U32(uint32(s[w])))
			}
			for k := 4; k < 16; k++ {
				DATA(256*r+64*v+4*k, U32(0))
			}
		}
		var p [16]int
		for i := range p {
			p[i] = s[permutation[i]]
		}
		s = p
	}
	cvp := Load(Param("cv"), GP64())
	buf := Load(Param("buf"), GP64())
	n := Load(Param("blocks"), GP64())
	lastLen := Load(Param("lastLen"), GP32())
	ctr := Load(Param("counter"), GP64())
	flags := Load(Param("flags"), GP32())
	lastFlags := Load(Param("lastFlags"), GP32())
	ip := GP64()
	LEAQ(idx, ip)
	ivp := GP64()
	LEAQ(ivConst(), ivp)
	row0, row1 := XMM(), XMM()
	VMOVDQU(Mem{Base: cvp}, row0)
	VMOVDQU(Mem{Base: cvp, Disp: 16}, row1)
	f := GP32()
	MOVL(flags, f)
	ORL(U32(flagChunkStart), f)
	Label("chunk1_loop")
	// The last block: its length, CHUNK_END and lastFlags.
	bl := GP32()
	MOVL(U32(64), bl)
	CMPQ(n, U8(1))
	JNE(LabelRef("chunk1_notlast"))
	MOVL(lastLen, bl)
	ORL(U32(flagChunkEnd), f)
	ORL(lastFlags, f)
	Label("chunk1_notlast")
	msg := ZMM()
	VMOVDQU32(Mem{Base: buf}, msg)
	row2, row3 := XMM(), XMM()
	VMOVDQU(Mem{Base: ivp}, row2)
	VMOVQ(ctr, row3)
	VPINSRD(U8(2), bl, row3, row3)
	VPINSRD(U8(3), f, row3, row3)
	rows := [4]reg.VecVirtual{row0, row1, row2, row3}
	for r := range 7 {
		var m [4]Op
		for v := range 4 {
			t, z := ZMM(), ZMM()
			VMOVDQU32(Mem{Base: ip, Disp: 256*r + 64*v}, t)
			VPERMD(msg, t, z)
			m[v] = z.AsX()
		}
		rowG(rows, m[0], m[1])
		// Rows 1-3 turned left by 1, 2, 3 words: the diagonals are columns.
		VPSHUFD(U8(0x39), rows[1], rows[1])
		VPSHUFD(U8(0x4e), rows[2], rows[2])
		VPSHUFD(U8(0x93), rows[3], rows[3])
		rowG(rows, m[2], m[3])
		VPSHUFD(U8(0x93), rows[1], rows[1])
		VPSHUFD(U8(0x4e), rows[2], rows[2])
		VPSHUFD(U8(0x39), rows[3], rows[3])
	}
	VPXORD(row2, row0, row0)
	VPXORD(row3, row1, row1)
	MOVL(flags, f)
	ADDQ(U32(64), buf)
	DECQ(n)
	JNZ(LabelRef("chunk1_loop"))
	VMOVDQU(row0, Mem{Base: cvp})
	VMOVDQU(row1, Mem{Base: cvp, Disp: 16})
	VZEROUPPER()
	RET()
}

// rowG is G on the four columns of the rows at once, message vectors x
// and y.
func rowG(r [4]reg.VecVirtual, x, y Op) {
	a, b, c, d := r[0], r[1], r[2], r[3]
	for _, step := range []struct {
		m      Op
		r1, r2 uint8
	}{{x, 16, 12}, {y, 8, 7}} {
		VPADDD(b, a, a)
		VPADDD(step.m, a, a)
		VPXORD(a, d, d)
		VPRORD(U8(step.r1), d, d)
		VPADDD(d, c, c)
		VPXORD(c, b, b)
		VPRORD(U8(step.r2), b, b)
	}
}
