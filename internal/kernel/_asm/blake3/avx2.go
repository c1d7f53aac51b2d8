package main

import (
	"github.com/hashlanes/hashlanes/internal/kernel/_asm/transpose"
	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	"github.com/mmcloughlin/avo/reg"
)

// The AVX2 kernels work on the AVX-512 kernels' memory layouts (rows of 16
// lanes), eight lanes a call from lane 0 or 8, so that the code that
// calls the 16-lane kernels calls these twice. A block's state is all 16
// YMM registers: the message and the rotation masks are read from memory
// by the instructions that use them, and the two rotations that are
// shifts (12 and 7 bits) borrow the register of one chaining word, stored
// to the stack and loaded back around them.

// rotMask is a VPSHUFB mask in read-only data that turns every 32-bit word
// right by 16 or 8 bits, declared on first use.
func rotMask(bits int) Mem {
	if m, ok := rotMasks[bits]; ok {
		return m
	}
	name := "blake3rot16"
	if bits == 8 {
		name = "blake3rot8"
	}
	m := GLOBL(name, RODATA|NOPTR)
	k := bits / 8
	for i := range 32 {
		w, b := i/4, i%4
		DATA(i, U8(uint8(4*w+(b+k)%4)))
	}
	rotMasks[bits] = m
	return m
}

var rotMasks = map[int]Mem{}

// rounds8 runs BLAKE3's seven rounds on the state v, message word j at
// msg(j), spilling v[8] to spill around the shift rotations.
func rounds8(v [16]reg.VecVirtual, msg func(j int) Op, spill Mem) {
	schedule(msg, func(g [4][4]int, m [4][2]Op) { half8(v, g, m, spill) })
}

// half8 is four G functions on YMM registers, step by step across the
// four. v[8] is a c of every G in both halves; it is not needed between
// b ^= c and the next c += d, so it lends its register to the shifts.
func half8(v [16]reg.VecVirtual, g [4][4]int, m [4][2]Op, spill Mem) {
	each := func(f func(a, b, c, d reg.VecVirtual, x, y Op)) {
		for i := range 4 {
			f(v[g[i][0]], v[g[i][1]], v[g[i][2]], v[g[i][3]], m[i][0], m[i][1])
		}
	}
	rotShift := func(r uint8) {
		VMOVDQU(v[8], spill)
		each(func(a, b, c, d reg.VecVirtual, x, y Op) {
			t := YMM()
			VPSRLD(U8(r), b, t)
			VPSLLD(U8(32-r), b, b)
			VPOR(t, b, b)
		})
		VMOVDQU(spill, v[8])
	}
	mix := func(first bool, r1 int, r2 uint8) {
		each(func(a, b, c, d reg.VecVirtual, x, y Op) {
			VPADDD(b, a, a)
			if first {
				VPADDD(x, a, a)
			} else {
				VPADDD(y, a, a)
			}
		})
		each(func(a, b, c, d reg.VecVirtual, x, y Op) { VPXOR(a, d, d); VPSHUFB(rotMask(r1), d, d) })
		each(func(a, b, c, d reg.VecVirtual, x, y Op) { VPADDD(d, c, c) })
		each(func(a, b, c, d reg.VecVirtual, x, y Op) { VPXOR(c, b, b) })
		rotShift(r2)
	}
	mix(true, 16, 12)
	mix(false, 8, 7)
}

// laneOffset moves the row pointers to lane 0 or 8 (lane, in a register):
// 4 bytes a lane in rows of uint32, 8 in the pointers.
func laneOffset(lane reg.Register, rows []reg.Register, ptrs reg.Register) {
	w := GP64()
	MOVQ(lane, w)
	SHLQ(U8(2), w)
	for _, r := range rows {
		ADDQ(w, r)
	}
	if ptrs != nil {
		SHLQ(U8(1), w)
		ADDQ(w, ptrs)
	}
}

// chunks8 compresses 8 whole chunks, or with variable 8 chunks each to its
// own last block (as chunks16's variable form, with compares and blends
// where that one has opmasks).
func chunks8(variable bool) {
	const row = 64 // a row of the 16-lane layouts
	name, sig := "compressChunks8", "func(cvs *[8][16]uint32, ptrs *[16]*byte, key *[8]uint32, ctr *[2][16]uint32, flags uint32, lane int)"
	if variable {
		name, sig = "compressChunksVar8", "func(cvs *[8][16]uint32, ptrs *[16]*byte, key *[8]uint32, ctr *[2][16]uint32, ends *[3][16]uint32, blocks int, flags uint32, lane int)"
	}
	TEXT(name, 0, sig)
	Pragma("noescape")
	if variable {
		Doc(name + " is compressChunksVar16 on AVX2 for the eight lanes from lane (0 or 8) of the same arrays.")
	} else {
		Doc(name + " is compressChunks16 on AVX2 for the eight lanes from lane (0 or 8) of the same arrays.")
	}
	hs := AllocLocal(8 * 32)   // the chaining values between blocks
	msg := AllocLocal(16 * 32) // this block's message, word-major
	spill := AllocLocal(32)
	done := AllocLocal(32) // variable: the lanes past their last block
	cvs := Load(Param("cvs"), GP64())
	pp := Load(Param("ptrs"), GP64())
	kp := Load(Param("key"), GP64())
	cp := Load(Param("ctr"), GP64())
	flags := Load(Param("flags"), GP32())
	lane := Load(Param("lane"), GP64())
	nb := GP64()
	var ends reg.Register
	if variable {
		ends = Load(Param("ends"), GP64())
		Load(Param("blocks"), nb)
		laneOffset(lane, []reg.Register{cvs, cp, ends}, pp)
	} else {
		MOVQ(U32(16), nb)
		laneOffset(lane, []reg.Register{cvs, cp}, pp)
	}
	for i := range 8 {
		h := YMM()
		VPBROADCASTD(Mem{Base: kp, Disp: 4 * i}, h)
		VMOVDQU(h, hs.Offset(32*i))
	}
	ivp := GP64()
	LEAQ(ivConst(), ivp)
	off := GP64()
	XORQ(off, off)
	loop := name + "_loop"
	Label(loop)
	for half, disp := range []int{0, 32} {
		w := transpose.Words8x8(pp, off, 0, disp)
		for j := range 8 {
			VMOVDQU(w[j], msg.Offset(32*(8*half+j)))
		}
	}
	f := GP32()
	MOVL(flags, f)
	zero := GP32()
	XORL(zero, zero)
	t := GP32()
	MOVL(U32(flagChunkStart), t)
	CMPQ(off, U8(0))
	CMOVLNE(zero, t)
	ORL(t, f)
	if !variable {
		u := GP32()
		MOVL(U32(flagChunkEnd), u)
		CMPQ(off, U32(15*64))
		CMOVLNE(zero, u)
		ORL(u, f)
	}
	var v [16]reg.VecVirtual
	for i := range v {
		v[i] = YMM()
	}
	bl := GP32()
	MOVL(U32(64), bl)
	VMOVD(bl, v[14].AsX())
	VPBROADCASTD(v[14].AsX(), v[14])
	VMOVD(f, v[15].AsX())
	VPBROADCASTD(v[15].AsX(), v[15])
	if variable {
		// The block's index in every lane, against each lane's last.
		idx := GP64()
		MOVQ(off, idx)
		SHRQ(U8(6), idx)
		b, end, d, x := YMM(), YMM(), YMM(), YMM()
		VMOVQ(idx, b.AsX())
		VPBROADCASTD(b.AsX(), b)
		VPCMPEQD(Mem{Base: ends}, b, end)
		VPCMPGTD(Mem{Base: ends}, b, d) // block > ends[0][i]
		VMOVDQU(d, done)
		VPBLENDVB(end, Mem{Base: ends, Disp: row}, v[14], v[14])
		VPAND(Mem{Base: ends, Disp: 2 * row}, end, x)
		VPOR(x, v[15], v[15])
	}
	for i := range 8 {
		VMOVDQU(hs.Offset(32*i), v[i])
	}
	for i := 8; i < 12; i++ {
		VPBROADCASTD(Mem{Base: ivp, Disp: 4 * (i - 8)}, v[i])
	}
	VMOVDQU(Mem{Base: cp}, v[12])
	VMOVDQU(Mem{Base: cp, Disp: row}, v[13])
	rounds8(v, func(j int) Op { return msg.Offset(32 * j) }, spill)
	for i := range 8 {
		VPXOR(v[i+8], v[i], v[i])
	}
	if variable {
		d := YMM()
		VMOVDQU(done, d)
		for i := range 8 {
			VPBLENDVB(d, hs.Offset(32*i), v[i], v[i])
		}
	}
	for i := range 8 {
		VMOVDQU(v[i], hs.Offset(32*i))
	}
	ADDQ(U8(64), off)
	DECQ(nb)
	JNZ(LabelRef(loop))
	for i := range 8 {
		h := YMM()
		VMOVDQU(hs.Offset(32*i), h)
		VMOVDQU(h, Mem{Base: cvs, Disp: row * i})
	}
	VZEROUPPER()
	RET()
}

// parents8 compresses the eight parents from half (0 or 8) of the 16 of
// compressParents16's layout: their children are the 16 chaining values
// in[half/8], left ones in the even lanes, right ones in the odd, which
// VSHUFPS and VPERMQ separate into the message's rows.
func parents8() {
	TEXT("compressParents8", 0, "func(out *[8][16]uint32, in *[2][8][16]uint32, key *[8]uint32, flags uint32, half int)")
	Pragma("noescape")
	Doc("compressParents8 is compressParents16 on AVX2 for the eight parents from half (0 or 8), whose children are in[half/8].")
	msg := AllocLocal(16 * 32)
	spill := AllocLocal(32)
	out := Load(Param("out"), GP64())
	in := Load(Param("in"), GP64())
	kp := Load(Param("key"), GP64())
	flags := Load(Param("flags"), GP32())
	half := Load(Param("half"), GP64())
	w := GP64()
	MOVQ(half, w)
	SHLQ(U8(2), w)
	ADDQ(w, out) // lane half of each row
	SHLQ(U8(4), w)
	ADDQ(w, in) // in[half/8]: 512 bytes on
	for j := range 8 {
		lo, hi, e, o := YMM(), YMM(), YMM(), YMM()
		VMOVDQU(Mem{Base: in, Disp: 64 * j}, lo)
		VMOVDQU(Mem{Base: in, Disp: 64*j + 32}, hi)
		VSHUFPS(U8(0x88), hi, lo, e)
		VPERMQ(U8(0xd8), e, e)
		VMOVDQU(e, msg.Offset(32*j))
		VSHUFPS(U8(0xdd), hi, lo, o)
		VPERMQ(U8(0xd8), o, o)
		VMOVDQU(o, msg.Offset(32*(8+j)))
	}
	ivp := GP64()
	LEAQ(ivConst(), ivp)
	var v [16]reg.VecVirtual
	for i := range v {
		v[i] = YMM()
	}
	for i := range 8 {
		VPBROADCASTD(Mem{Base: kp, Disp: 4 * i}, v[i])
	}
	for i := 8; i < 12; i++ {
		VPBROADCASTD(Mem{Base: ivp, Disp: 4 * (i - 8)}, v[i])
	}
	VPXOR(v[12], v[12], v[12])
	VPXOR(v[13], v[13], v[13])
	bl := GP32()
	MOVL(U32(64), bl)
	VMOVD(bl, v[14].AsX())
	VPBROADCASTD(v[14].AsX(), v[14])
	ORL(U32(flagParent), flags)
	VMOVD(flags, v[15].AsX())
	VPBROADCASTD(v[15].AsX(), v[15])
	rounds8(v, func(j int) Op { return msg.Offset(32 * j) }, spill)
	for i := range 8 {
		VPXOR(v[i+8], v[i], v[i])
		VMOVDQU(v[i], Mem{Base: out, Disp: 64 * i})
	}
	VZEROUPPER()
	RET()
}
