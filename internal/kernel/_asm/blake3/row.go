package main

import (
	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	"github.com/mmcloughlin/avo/reg"
)

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
