// Package sha2 emits the rounds and message schedule shared by the
// SHA-256 and SHA-512 lane kernels: the same instructions on 32-bit or
// 64-bit words, with each function's rotation amounts.
package sha2

import (
	"fmt"
	"slices"

	"github.com/hashlanes/hashlanes/internal/kernel/_asm/stack"
	"github.com/hashlanes/hashlanes/internal/kernel/_asm/warm"

	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	. "github.com/mmcloughlin/avo/reg"
)

// Words is one word size's instructions and rotation amounts, in AVX-512
// (EVEX) or AVX2 (VEX) forms. AVX2 has no rotation, ternary logic or
// broadcast operand (Ror, Tern, AddBcst and Mov are nil): the rounds spell them
// out, and with 16 registers a kernel runs one group of lanes.
type Words struct {
	Bytes     int             // of a word
	Ror, Srl  func(ops ...Op) // imm, x, dst
	Shl       func(ops ...Op) // imm, x, dst (AVX2 only)
	Bcst      func(ops ...Op) // broadcast a word from memory: mem, dst (AVX2 only)
	Add       func(ops ...Op) // src, x, dst
	AddBcst   func(ops ...Op) // add a word broadcast from memory
	Tern      func(ops ...Op) // imm, c, b, a
	Mov, Load func(ops ...Op) // register copy; unaligned load or store
	Sigma1    [3]uint8        // Σ1(e): three rotations
	Sigma0    [3]uint8        // Σ0(a): three rotations
	Small0    [3]uint8        // σ0: two rotations and a shift
	Small1    [3]uint8        // σ1: two rotations and a shift
	VecBytes  int             // of a lane register: 32 (YMM, the default) or 64 (ZMM)
}

// SHA256 and SHA512 are the two word sizes (FIPS 180-4, 4.1.2 and 4.1.3),
// in AVX-512 forms and in AVX2 ones.
var (
	SHA256 = Words{
		Bytes: 4, Ror: VPRORD, Srl: VPSRLD, Add: VPADDD, AddBcst: VPADDD_BCST, Tern: VPTERNLOGD,
		Mov: VMOVDQA32, Load: VMOVDQU32,
		Sigma1: [3]uint8{6, 11, 25}, Sigma0: [3]uint8{2, 13, 22}, Small0: [3]uint8{7, 18, 3}, Small1: [3]uint8{17, 19, 10},
	}
	SHA512 = Words{
		Bytes: 8, Ror: VPRORQ, Srl: VPSRLQ, Add: VPADDQ, AddBcst: VPADDQ_BCST, Tern: VPTERNLOGQ,
		Mov: VMOVDQA64, Load: VMOVDQU64,
		Sigma1: [3]uint8{14, 18, 41}, Sigma0: [3]uint8{28, 34, 39}, Small0: [3]uint8{1, 8, 7}, Small1: [3]uint8{19, 61, 6},
	}
	SHA256AVX2 = SHA256.avx2()
	SHA512AVX2 = SHA512.avx2()
)

// avx2 is ws in AVX2 (VEX) forms: the same shifts and additions (the
// assembler picks their VEX encoding), a left shift and a broadcast load
// to spell out what AVX2 lacks, plain unaligned moves.
func (ws Words) avx2() Words {
	v := ws
	v.Ror, v.Tern, v.AddBcst, v.Mov = nil, nil, nil, nil
	v.Load = func(ops ...Op) { VMOVDQU(ops[0], ops[1]) }
	v.Shl, v.Bcst = VPSLLD, VPBROADCASTD
	if ws.Bytes == 8 {
		v.Shl, v.Bcst = VPSLLQ, VPBROADCASTQ
	}
	return v
}

// vex reports AVX2 forms.
func (ws Words) vex() bool { return ws.Tern == nil }

// ZMM is ws on 512-bit registers: a group of lanes is 64 bytes of them,
// twice a YMM group, the rounds' instruction count a lane halved: for
// cores that issue 512-bit operations nearly as often as 256-bit ones
// (docs/kernel-design.md, "SHA-2 in ZMM registers").
func (ws Words) ZMM() Words {
	v := ws
	v.VecBytes = 64
	return v
}

// vb is the bytes of a lane register.
func (ws Words) vb() int {
	if ws.VecBytes == 0 {
		return 32
	}
	return ws.VecBytes
}

// vec allocates a lane register.
func (ws Words) vec() VecVirtual {
	if ws.vb() == 64 {
		return ZMM()
	}
	return YMM()
}

// ror sets dst to x rotated right by k: two shifts and an OR in AVX2, or
// one byte shuffle where k is whole bytes.
func (ws Words) ror(k uint8, x, dst VecVirtual) {
	if !ws.vex() {
		ws.Ror(U8(k), x, dst)
		return
	}
	if k%8 == 0 {
		VPSHUFB(ws.rorBytesMask(int(k/8)), x, dst)
		return
	}
	t := YMM()
	ws.Shl(U8(8*ws.Bytes-int(k)), x, t)
	ws.Srl(U8(k), x, dst)
	VPOR(t, dst, dst)
}

// xor3 sets dst to dst ^ b ^ c.
func (ws Words) xor3(c, b, dst VecVirtual) {
	if !ws.vex() {
		ws.Tern(U8(0x96), c, b, dst)
		return
	}
	VPXOR(b, dst, dst)
	VPXOR(c, dst, dst)
}

// ch returns e ? f : g.
func (ws Words) ch(e, f, g VecVirtual) VecVirtual {
	x := ws.vec()
	if !ws.vex() {
		ws.Mov(e, x)
		ws.Tern(U8(0xca), g, f, x)
		return x
	}
	VPXOR(f, g, x) // ((f ^ g) & e) ^ g
	VPAND(e, x, x)
	VPXOR(g, x, x)
	return x
}

// maj returns the majority of a, b, c. In AVX2 it is b ^ ((a ^ b) &
// (b ^ c)), and *ab carries a ^ b to the next round, whose b ^ c it is:
// three instructions a round instead of four. *ab nil (a pass's first
// round) computes b ^ c.
func (ws Words) maj(a, b, c VecVirtual, ab *VecVirtual) VecVirtual {
	x := ws.vec()
	if !ws.vex() {
		ws.Mov(a, x)
		ws.Tern(U8(0xe8), c, b, x)
		return x
	}
	bc := *ab
	if bc == nil {
		bc = YMM()
		VPXOR(b, c, bc)
	}
	*ab = YMM()
	VPXOR(a, b, *ab)
	VPAND(*ab, bc, x)
	VPXOR(b, x, x)
	return x
}

// small returns σ0 or σ1 of x (k: its two rotations and its shift).
func (ws Words) small(x VecVirtual, k [3]uint8) VecVirtual {
	s, u, v := ws.vec(), ws.vec(), ws.vec()
	ws.ror(k[0], x, s)
	ws.ror(k[1], x, u)
	ws.Srl(U8(k[2]), x, v)
	ws.xor3(v, u, s)
	return s
}

// Schedule computes message word t of group g in the buffer w, whose rows
// of row bytes hold one word of every lane:
// σ1(w[t-2]) + w[t-7] + σ0(w[t-15]) + w[t-16].
// recent, if not nil, keeps the words it computes in registers for two
// rounds: each word depends on the one from two rounds before, and going
// through memory put a store-to-load round trip on that chain.
func (ws Words) Schedule(w Mem, row, t, g int, recent map[int]VecVirtual) {
	at := func(i int) Mem { return w.Offset(row*i + ws.vb()*g) }
	load := func(i int) VecVirtual {
		if x, ok := recent[i]; ok {
			delete(recent, i)
			return x
		}
		x := ws.vec()
		ws.Load(at(i), x)
		return x
	}
	s0 := ws.small(load(t-15), ws.Small0)
	s1 := ws.small(load(t-2), ws.Small1)
	ws.Add(s0, s1, s1)
	ws.Add(at(t-7), s1, s1)
	ws.Add(at(t-16), s1, s1)
	ws.Load(s1, at(t))
	if recent != nil {
		recent[t] = s1
	}
}

// Round does round t for one group with state v = a..h, the round
// constants at kt and the message word at wt, and returns the roles for
// the next round: h becomes T1, then T1+T2 (the new a), and d becomes d+T1
// (the new e), so nothing moves between registers.
func (ws Words) Round(v [8]VecVirtual, kt GPVirtual, wt Op, t int, ab *VecVirtual) [8]VecVirtual {
	a, b, c, d, e, f, g, h := v[0], v[1], v[2], v[3], v[4], v[5], v[6], v[7]
	if ws.vex() {
		k := YMM()
		ws.Bcst(Mem{Base: kt, Disp: ws.Bytes * t}, k)
		ws.Add(k, h, h)
	} else {
		ws.AddBcst(Mem{Base: kt, Disp: ws.Bytes * t}, h, h)
	}
	ws.Add(wt, h, h)
	big := func(x VecVirtual, k [3]uint8) VecVirtual {
		s, r1, r2 := ws.vec(), ws.vec(), ws.vec()
		ws.ror(k[0], x, s)
		ws.ror(k[1], x, r1)
		if ws.vex() { // one rotation less alive at once: 16 registers
			VPXOR(r1, s, s)
			ws.ror(k[2], x, r2)
			VPXOR(r2, s, s)
			return s
		}
		ws.ror(k[2], x, r2)
		ws.xor3(r2, r1, s)
		return s
	}
	ws.Add(big(e, ws.Sigma1), h, h)
	ws.Add(ws.ch(e, f, g), h, h) // T1
	ws.Add(h, d, d)              // new e
	ws.Add(big(a, ws.Sigma0), h, h)
	ws.Add(ws.maj(a, b, c, ab), h, h) // T1 + T2
	return [8]VecVirtual{h, a, b, c, d, e, f, g}
}

// Lanes emits the body of a lane kernel with signature func(s, ptrs,
// nblocks): the state, word i of lane j at s[i][j], held in two groups of
// YMM registers (32 bytes of lanes each) or one of ZMM registers (64
// bytes), rounds rounds a block with the
// round constants at consts. load writes each block's message words to w
// (word t of group g at w+row*t+32g), byte-swapped; it is given the lane
// pointers, the block offset and the byte-swap mask in a register. fn is
// the kernel's name and codeBytes a bound on its code (see warm.Code).
func (ws Words) Lanes(fn string, codeBytes, rounds int, consts, bswapMask Mem, load func(pp, off Register, bswap VecVirtual, w Mem, row int)) {
	groups := 2
	if ws.vb() == 64 { // the same 64 bytes of lanes in one ZMM group
		groups = 1
	}
	ws.LanesRiding(fn, codeBytes, groups, rounds, consts, bswapMask, load, nil)
}

// Rider is work a lane kernel carries among its rounds, so that it runs on
// the execution units the rounds leave idle: Begin is emitted before the
// block loop, Round(t) after the lanes' round t of each pass of 16 rounds
// (t = 0..15; a block makes rounds/16 passes, all but the last one a loop
// of the same code), End after the block loop.
type Rider interface {
	Begin()
	Round(t int)
	End()
}

// LanesRiding is Lanes with groups groups of lanes (1 or 2) and, if rider
// is not nil, its work among the rounds. A kernel with a rider keeps its
// lanes in registers 16-31 (highvec), half the file, so its chaining state
// waits in memory while each block is transposed, as LanesAVX2's does.
func (ws Words) LanesRiding(fn string, codeBytes, groups, rounds int, consts, bswapMask Mem, load func(pp, off Register, bswap VecVirtual, w Mem, row int), rider Rider) {
	vb := ws.vb()
	row := vb * groups // bytes of one word across the lanes of every group
	// One group of ZMM lanes leaves sixteen registers for the schedule.
	inRegisters := groups == 1 && rider == nil
	words := rounds
	if inRegisters {
		words = 16
	}
	w, saved, sp, pp, n, off := frame(words, row)
	inMemory := rider != nil
	st := make([][8]VecVirtual, groups)
	for g := range st {
		for i := range 8 {
			st[g][i] = ws.vec()
			ws.Load(Mem{Base: sp, Disp: row*i + vb*g}, st[g][i])
			if inMemory {
				ws.Load(st[g][i], saved.Offset(row*i+vb*g))
			}
		}
	}
	ride := func(int) {}
	if rider != nil {
		rider.Begin()
		ride = rider.Round
	}
	Label("avx512_loop")
	warm.Code(fn, codeBytes, 16*ws.Bytes, n)
	bswap := YMM()
	ws.Load(bswapMask, bswap)
	load(pp, off, bswap, w, row)
	for g := range st {
		for i := range 8 {
			if inMemory {
				st[g][i] = ws.vec()
				ws.Load(saved.Offset(row*i+vb*g), st[g][i])
			} else {
				ws.Load(st[g][i], saved.Offset(row*i+vb*g))
			}
		}
	}
	if inRegisters {
		ws.roundsInRegisters("avx512", rounds, row, w, consts, st[0])
	} else {
		ws.rounds("avx512", rounds, row, w, consts, st, true, ride)
	}
	for g := range st {
		for i := range 8 {
			ws.Add(saved.Offset(row*i+vb*g), st[g][i], st[g][i])
			if inMemory {
				ws.Load(st[g][i], saved.Offset(row*i+vb*g))
			}
		}
	}
	ws.nextBlock(off)
	DECQ(n)
	JNZ(LabelRef("avx512_loop"))
	for g := range st {
		for i := range 8 {
			if inMemory {
				ws.Load(saved.Offset(row*i+vb*g), st[g][i])
			}
			ws.Load(st[g][i], Mem{Base: sp, Disp: row*i + vb*g})
		}
	}
	if rider != nil {
		rider.End()
	}
	VZEROUPPER()
	RET()
}

// LanesAVX2 is Lanes in AVX2 forms: one group of lanes in YMM registers
// (8 of 32-bit words or 4 of 64-bit ones: 32 bytes a message word), with
// the chaining state kept in memory between blocks, since the transpose
// needs most of the 16 registers.
func (ws Words) LanesAVX2(fn string, codeBytes, rounds int, consts, bswapMask Mem, load func(pp, off Register, bswap VecVirtual, w Mem, row int)) {
	const row = 32
	w, saved, sp, pp, n, off := frame(rounds, row)
	for i := range 8 {
		x := YMM()
		ws.Load(Mem{Base: sp, Disp: row * i}, x)
		ws.Load(x, saved.Offset(row*i))
	}
	Label("avx2_loop")
	warm.Code(fn, codeBytes, 16*ws.Bytes, n)
	bswap := YMM()
	ws.Load(bswapMask, bswap)
	load(pp, off, bswap, w, row)
	ws.blockAVX2("avx2", rounds, w, saved, consts)
	ws.nextBlock(off)
	DECQ(n)
	JNZ(LabelRef("avx2_loop"))
	for i := range 8 {
		x := YMM()
		ws.Load(saved.Offset(row*i), x)
		ws.Load(x, Mem{Base: sp, Disp: row * i})
	}
	VZEROUPPER()
	RET()
}

// blockAVX2 hashes one block of one group of lanes in AVX2: the state
// word i at saved+32i (and the block's result there after), the message
// words at w (word t at w+32t, the first 16 filled), the round constants
// at consts; name labels its rounds' loop.
func (ws Words) blockAVX2(name string, rounds int, w, saved, consts Mem) {
	const row = 32
	var cur [8]VecVirtual
	for i := range 8 {
		cur[i] = YMM()
		ws.Load(saved.Offset(row*i), cur[i])
	}
	ws.rounds(name, rounds, row, w, consts, [][8]VecVirtual{cur}, false, nil)
	for i := range 8 {
		ws.Add(saved.Offset(row*i), cur[i], cur[i])
		ws.Load(cur[i], saved.Offset(row*i))
	}
}

// rounds emits the rounds of one block for the groups of lanes whose
// states are in st (word i of group g in st[g][i], the same registers
// after the rounds), with the message words in w (word t of group g at
// w+row*t+32g, the first 16 filled) and the round constants at consts.
// The rounds run as a loop of 16, then 16 more without the schedule:
// unrolled whole, a SHA-512 block outgrew the op cache and ran slower;
// as a loop the kernel issues near the core's width, so more speed needs
// fewer instructions (docs/kernel-design.md, "SHA-2's rounds as loops").
// schedule's latest words in registers (AVX-512 only: AVX2 lacks the
// registers). ride, if not nil, is called after each round t of a pass.
func (ws Words) rounds(name string, rounds, row int, w Mem, consts Mem, st [][8]VecVirtual, recent bool, ride func(t int)) {
	wp, kp, it := GP64(), GP64(), GP64()
	LEAQ(w, wp)
	LEAQ(consts, kp)
	MOVQ(U32(rounds/16-1), it)
	body := func(schedule bool) {
		cur := slices.Clone(st)
		ab := make([]VecVirtual, len(st)) // each group's a ^ b, for Maj
		keep := make([]map[int]VecVirtual, len(st))
		for g := range keep {
			if recent {
				keep[g] = map[int]VecVirtual{}
			}
		}
		for t := range 16 {
			for g := range st {
				if schedule {
					ws.Schedule(Mem{Base: wp}, row, t+16, g, keep[g])
				}
				cur[g] = ws.Round(cur[g], kp, Mem{Base: wp, Disp: row*t + ws.vb()*g}, t, &ab[g])
			}
			if ride != nil {
				ride(t)
			}
		}
	}
	ws.passes(name, kp, it, body, func() { ADDQ(U32(16*row), wp) })
}

// passes emits a block's rounds as a loop: body(true), the passes of 16
// rounds that extend the schedule, counted by it (loaded with their
// count), each followed by next (if not nil) and kp's move to the next 16
// round constants; then body(false), the last 16.
func (ws Words) passes(name string, kp, it GPVirtual, body func(schedule bool), next func()) {
	Label(name + "_rounds")
	body(true)
	if next != nil {
		next()
	}
	ADDQ(U32(16*ws.Bytes), kp)
	DECQ(it)
	JNZ(LabelRef(name + "_rounds"))
	body(false)
}

// roundsInRegisters is rounds for one group of lanes in ZMM registers
// with the message schedule in sixteen more, a ring: round t reads word t
// from register t mod 16, and the schedule then puts word t+16 there. No
// schedule word goes through memory, and no instruction has a memory
// operand but the round constant's broadcast.
func (ws Words) roundsInRegisters(name string, rounds, row int, w, consts Mem, st [8]VecVirtual) {
	var ring [16]VecVirtual
	for t := range ring {
		ring[t] = ws.vec()
		ws.Load(w.Offset(row*t), ring[t])
	}
	kp, it := GP64(), GP64()
	LEAQ(consts, kp)
	MOVQ(U32(rounds/16-1), it)
	body := func(schedule bool) {
		cur := st
		for t := range 16 {
			cur = ws.Round(cur, kp, ring[t], t, nil)
			if schedule { // word t+16 = σ1(w[t+14]) + w[t+9] + σ0(w[t+1]) + w[t]
				x := ring[t]
				ws.Add(ws.small(ring[(t+1)%16], ws.Small0), x, x)
				ws.Add(ring[(t+9)%16], x, x)
				ws.Add(ws.small(ring[(t+14)%16], ws.Small1), x, x)
			}
		}
	}
	ws.passes(name, kp, it, body, nil)
}

// nextBlock advances the block offset by one block of 16 words; 128 does
// not fit a sign-extended byte.
func (ws Words) nextBlock(off Register) {
	if block := 16 * ws.Bytes; block < 128 {
		ADDQ(U8(block), off)
	} else {
		ADDQ(U32(block), off)
	}
}

// frame allocates a lane kernel's stack (the message schedule w, words
// rows of row bytes, and the saved state) and loads its arguments; off, the
// block offset in every lane, starts at 0.
func frame(words, row int) (w, saved Mem, sp, pp, n, off Register) {
	w = stack.Aligned(words*row + 8*row)
	saved = w.Offset(words * row)
	sp = Load(Param("s"), GP64())
	pp = Load(Param("ptrs"), GP64())
	n = Load(Param("nblocks"), GP64())
	off = GP64()
	XORQ(off, off)
	return w, saved, sp, pp, n, off
}

var tables = map[string]Mem{}

// table emits a read-only table the first time it is asked for.
func table(name string, data func()) Mem {
	if m, ok := tables[name]; ok {
		return m
	}
	m := GLOBL(name, RODATA|NOPTR)
	data()
	tables[name] = m
	return m
}

// Consts is the table of round constants k, named name.
func (ws Words) Consts(name string, k []uint64) Mem {
	return table(name, func() {
		for i, v := range k {
			if ws.Bytes == 8 {
				DATA(8*i, U64(v))
			} else {
				DATA(4*i, U32(uint32(v)))
			}
		}
	})
}

// rorBytesMask is the VPSHUFB mask that rotates each word right by n
// bytes.
func (ws Words) rorBytesMask(n int) Mem {
	return table(fmt.Sprintf("ror%dby%d", 8*ws.Bytes, 8*n), func() {
		for i := range 32 {
			word := i &^ (ws.Bytes - 1)
			DATA(i, U8(uint8(word%16+(i+n)%ws.Bytes)))
		}
	})
}

// ByteSwapMask is the VPSHUFB mask that reverses the bytes of each word
// (the message is big-endian), 32 bytes for 256-bit use; VPSHUFB reads
// only an index's low four bits, within each 128-bit half.
func (ws Words) ByteSwapMask(name string) Mem {
	return table(name, func() {
		for i := range 32 {
			last := ws.Bytes - 1
			DATA(i, U8(uint8(i&^last%16+last-i&last)))
		}
	})
}
