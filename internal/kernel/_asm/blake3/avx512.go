package main

import (
	"github.com/hashlanes/hashlanes/internal/kernel/_asm/stack"
	"github.com/hashlanes/hashlanes/internal/kernel/_asm/transpose"
	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	"github.com/mmcloughlin/avo/reg"
)

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
	// hashes: the kernel runs slower from memory than from the cache.
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
	transpose.DeferRows16(d, ptrs, off, 0, nil, func(j int) Mem { return Mem{Base: buf, Disp: 64 * j} })
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
