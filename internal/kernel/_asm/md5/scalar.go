package main

// The scalar kernels: one stream, and two interleaved.

import (
	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	"github.com/mmcloughlin/avo/reg"
)

// scalar is a lone stream's kernel: plain x86-64, latency-bound on the
// 64-step dependency chain, so every step keeps its chain as short as the
// round function allows (G and F are split into two disjoint ANDs added
// separately where that shortens the chain).
func scalar() {
	TEXT("blockAMD64", NOSPLIT, "func(s *[4]uint32, p []byte)")
	Pragma("noescape")
	Doc("blockAMD64 hashes the whole blocks of p into s, one stream, base x86-64.")
	sp := Load(Param("s"), GP64())
	ptr := Load(Param("p").Base(), GP64())
	n := Load(Param("p").Len(), GP64())
	SHRQ(U8(6), n)
	JZ(LabelRef("scalar_done"))
	SHLQ(U8(6), n)
	end := GP64()
	LEAQ(Mem{Base: ptr, Index: n, Scale: 1}, end)

	v := [4]reg.GPVirtual{GP32(), GP32(), GP32(), GP32()}
	for i := range v {
		MOVL(Mem{Base: sp, Disp: 4 * i}, v[i])
	}
	Label("scalar_loop")
	saved := [4]reg.GPVirtual{GP32(), GP32(), GP32(), GP32()}
	for i := range v {
		MOVL(v[i], saved[i])
	}
	a, b, c, d := v[0], v[1], v[2], v[3]
	for i := range 64 {
		step(i, a, b, c, d, Mem{Base: ptr, Disp: 4 * word(i)})
		a, b, c, d = d, a, b, c
	}
	for i := range v {
		ADDL(saved[i], v[i])
	}
	ADDQ(U8(64), ptr)
	CMPQ(ptr, end)
	JB(LabelRef("scalar_loop"))
	for i := range v {
		MOVL(v[i], Mem{Base: sp, Disp: 4 * i})
	}
	Label("scalar_done")
	RET()
}

// scalarX2 hashes two streams in the general-purpose registers, their
// steps interleaved: a lone stream waits on its chain, four to six cycles
// a step, with the integer ALUs mostly idle, so a second chain beside it
// comes nearly free. The steps are scalar's.
func scalarX2() {
	TEXT("blockAMD64x2", NOSPLIT, "func(s *[2][4]uint32, ptrs *[2]*byte, nblocks int)")
	Pragma("noescape")
	Doc("blockAMD64x2 hashes nblocks blocks of two streams, base x86-64.")
	saved := AllocLocal(32)
	sp := Load(Param("s"), GP64())
	pp := Load(Param("ptrs"), GP64())
	var ptr [2]reg.GPVirtual
	var v [2][4]reg.GPVirtual
	for l := range 2 {
		ptr[l] = GP64()
		MOVQ(Mem{Base: pp, Disp: 8 * l}, ptr[l])
		for i := range v[l] {
			v[l][i] = GP32()
			MOVL(Mem{Base: sp, Disp: 16*l + 4*i}, v[l][i])
		}
	}
	n := Load(Param("nblocks"), GP64())
	Label("scalarx2_loop")
	for l := range 2 {
		for i := range v[l] {
			MOVL(v[l][i], saved.Offset(16*l+4*i))
		}
	}
	st := v
	for i := range 64 {
		for l := range 2 {
			a, b, c, d := st[l][0], st[l][1], st[l][2], st[l][3]
			step(i, a, b, c, d, Mem{Base: ptr[l], Disp: 4 * word(i)})
			st[l] = [4]reg.GPVirtual{d, a, b, c}
		}
	}
	for l := range 2 {
		for i := range v[l] {
			ADDL(saved.Offset(16*l+4*i), v[l][i])
		}
		ADDQ(U8(64), ptr[l])
	}
	DECQ(n)
	JNZ(LabelRef("scalarx2_loop"))
	sp = Load(Param("s"), GP64())
	for l := range 2 {
		for i := range v[l] {
			MOVL(v[l][i], Mem{Base: sp, Disp: 16*l + 4*i})
		}
	}
	RET()
}

// step is MD5 step i in general-purpose registers: a = b + ((a + f(b, c,
// d) + K[i] + m) <<< s), m the step's message word in memory.
func step(i int, a, b, c, d reg.GPVirtual, m Mem) {
	t := GP32()
	ADDL(m, a)
	ADDL(U32(consts[i]), a)
	switch i / 16 {
	case 0: // d ^ (b & (c ^ d))
		MOVL(c, t)
		XORL(d, t)
		ANDL(b, t)
		XORL(d, t)
		ADDL(t, a)
	case 1: // (c &^ d) + (b & d): disjoint bits, so OR is ADD
		t2 := GP32()
		MOVL(d, t)
		NOTL(t)
		ANDL(c, t)
		ADDL(t, a)
		MOVL(d, t2)
		ANDL(b, t2)
		ADDL(t2, a)
	case 2:
		MOVL(c, t)
		XORL(d, t)
		XORL(b, t)
		ADDL(t, a)
	case 3: // c ^ (b | ^d)
		MOVL(d, t)
		NOTL(t)
		ORL(b, t)
		XORL(c, t)
		ADDL(t, a)
	}
	ROLL(U8(shifts[i/16][i%4]), a)
	ADDL(b, a)
}
