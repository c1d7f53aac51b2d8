// Command sha256 generates the amd64 SHA-256 kernels of
// internal/kernel/sha256.
package main

import (
	"fmt"

	"github.com/hashlanes/hashlanes/internal/kernel/_asm/highvec"
	"github.com/hashlanes/hashlanes/internal/kernel/_asm/interleave"
	"github.com/hashlanes/hashlanes/internal/kernel/_asm/lanewrap"
	"github.com/hashlanes/hashlanes/internal/kernel/_asm/sha2"
	"github.com/hashlanes/hashlanes/internal/kernel/_asm/transpose"
	"github.com/hashlanes/hashlanes/internal/kernel/sha256/rounds"
	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	. "github.com/mmcloughlin/avo/reg"
)

func main() {
	ConstraintExpr("amd64,!purego")
	shani()
	shaniX2()
	shaniX4()
	avx2()
	avx512()
	zmm()
	hybrid()
	highvec.For("blockSHANIx2AVX512YMMx8")
	batchAVX512()
	batchZMM()
	// The Go side of the kernels: wrappers and the package's lists (the
	// hybrid's wrapper and entry are written by hand).
	lanewrap.Rows(lanewrap.Kernel{Go: "SHANIx2", Level: "Generic", Needs: "SHA", Lanes: 2}, 8)
	lanewrap.Rows(lanewrap.Kernel{Go: "SHANIx4", Level: "Generic", Needs: "SHA", Lanes: 4}, 8)
	lanewrap.Lanes(lanewrap.Kernel{Go: "AVX2x8", Level: "AVX2", Lanes: 8}, 8, 32)
	lanewrap.Lanes(lanewrap.Kernel{Go: "AVX512YMMx16", Level: "AVX512", Lanes: 16}, 8, 32)
	lanewrap.Lanes(lanewrap.Kernel{Go: "AVX512ZMMx16", Level: "AVX512", Lanes: 16}, 8, 32)
	lanewrap.Batch(lanewrap.Kernel{Go: "AVX512YMMx16", Level: "AVX512", Lanes: 16}, true)
	lanewrap.Batch(lanewrap.Kernel{Go: "AVX512ZMMx16", Level: "AVX512", Lanes: 16}, true)
	Generate()
	lanewrap.Write("sha256")
}

// shani hashes one stream with the SHA extensions: SHA256RNDS2 does two
// rounds on the state kept as ABEF/CDGH, SHA256MSG1/MSG2 extend the
// message four words at a time. A lone stream is bound by SHA256RNDS2's
// latency; crypto/sha256 takes the same path on this CPU.
func shani() {
	TEXT("blockSHANI", NOSPLIT, "func(s *[8]uint32, p []byte)")
	Pragma("noescape")
	Doc("blockSHANI hashes the whole blocks of p into s with SHA-NI.")
	sp := Load(Param("s"), GP64())
	ptr := Load(Param("p").Base(), GP64())
	n := Load(Param("p").Len(), GP64())
	SHRQ(U8(6), n)
	JZ(LabelRef("shani_done"))
	SHLQ(U8(6), n)
	end := GP64()
	LEAQ(Mem{Base: ptr, Index: n, Scale: 1}, end)
	kt := GP64()
	LEAQ(constTable(), kt)
	mask := XMM()
	MOVOU(byteSwapMask(), mask)

	abef, cdgh := XMM(), XMM()
	toABEF(Mem{Base: sp}, abef, cdgh, XMM())

	Label("shani_loop")
	saveAB, saveCD := XMM(), XMM()
	MOVOU(abef, saveAB)
	MOVOU(cdgh, saveCD)
	var m [4]VecVirtual
	for i := range m {
		m[i] = XMM()
		MOVOU(Mem{Base: ptr, Disp: 16 * i}, m[i])
		PSHUFB(mask, m[i])
	}
	for g := range 16 { // rounds 4g..4g+3
		MOVOU(Mem{Base: kt, Disp: 16 * g}, X0) // SSE memory operands must be 16-byte aligned; MOVOU need not be
		PADDD(m[g%4], X0)
		SHA256RNDS2(X0, abef, cdgh)
		PSHUFD(U8(0x0e), X0, X0)
		SHA256RNDS2(X0, cdgh, abef)
		if g <= 11 { // words of group g+4 replace those of group g
			extend(m, g)
		}
	}
	PADDD(saveAB, abef)
	PADDD(saveCD, cdgh)
	ADDQ(U8(64), ptr)
	CMPQ(ptr, end)
	JB(LabelRef("shani_loop"))

	fromABEF(abef, cdgh, Mem{Base: sp}, XMM())
	Label("shani_done")
	RET()
}

// avx2 hashes 8 lanes in one group of YMM registers, the AVX-512
// kernel's rounds spelled in AVX2 (each rotation two shifts and an OR; Ch
// and Maj in three instructions each), for CPUs with AVX2 but neither
// AVX-512 nor SHA-NI.
func avx2() {
	TEXT("blockAVX2x8", 0, "func(s *[8][8]uint32, ptrs *[8]*byte, nblocks int)")
	Pragma("noescape")
	Doc("blockAVX2x8 hashes nblocks blocks of 8 lanes with AVX2.")
	sha2.SHA256AVX2.LanesAVX2("blockAVX2x8", 10<<10, 64, constTable(), byteSwapMask(), func(pp, off Register, bswap VecVirtual, w Mem, row int) {
		for h := range 2 {
			for j, r := range transpose.Words8x8(pp, off, 0, 32*h) {
				VPSHUFB(bswap, r, r)
				VMOVDQU(r, w.Offset(row*(8*h+j)))
			}
		}
	})
}

// avx512 hashes 16 lanes as two interleaved groups of 8 in YMM registers
// with the AVX-512 forms: VPRORD for the rotations, VPTERNLOGD for the
// three-way XORs of the Sigma functions and for Ch and Maj, broadcast
// round constants. A round is 19 instructions a group, so two groups
// already fill the pipes (256-bit operations: 512-bit ones issue at half
// the rate on Zen 4, see the MD5 generator); each block's message is
// transposed and byte-swapped up front, and the schedule is extended in a
// stack buffer two rounds ahead of its first use.
func avx512() { lanes512("blockAVX512YMMx16", "256-bit", sha2.SHA256, false) }

// zmm is avx512 with the 16 lanes in one group of ZMM registers: half the
// instructions, for CPUs whose 512-bit operations issue nearly as often
// as 256-bit ones (Intel's, on two ports; sha2.Words.ZMM). The message
// lands in the same rows, 64 bytes a word. On an Intel Xeon with AMX, two
// SHA-NI streams riding these 16 lanes as they ride hybrid's 8 (built and
// measured, not kept) moved 3,460 MB/s with all 18 busy against 4,190 for
// the lanes alone: the 512-bit rounds leave no ports for the SHA unit's
// work to fill.
func zmm() { lanes512("blockAVX512ZMMx16", "512-bit", sha2.SHA256.ZMM(), true) }

// lanes512 emits a 16-lane kernel; wide ones transpose the message in
// 512-bit registers (transpose.DeferWords16: 48 inserts from memory, 32
// unpacks and 16 byte swaps a block, against 192 shuffles and 64 byte
// swaps for four 256-bit 8x8 transposes, all on the one port that
// shuffles).
func lanes512(name, forms string, words sha2.Words, wide bool) {
	TEXT(name, 0, "func(s *[8][16]uint32, ptrs *[16]*byte, nblocks int)")
	Pragma("noescape")
	Doc(fmt.Sprintf("%s hashes nblocks blocks of 16 lanes with %s AVX-512 instructions.", name, forms))
	words.Lanes(name, 14<<10, 64, constTable(), byteSwapMask(), func(pp, off Register, bswap VecVirtual, w Mem, row int) {
		if wide {
			bswap512 := ZMM()
			VBROADCASTI32X4(byteSwapMask(), bswap512)
			var d transpose.Deferred
			transpose.DeferWords16(&d, pp, off, 0, func(j int, r VecVirtual) {
				VPSHUFB(bswap512, r, r)
				VMOVDQU32(r, w.Offset(row*j))
			})
			d.Flush()
			return
		}
		for g := range 2 {
			for h := range 2 {
				transpose.Words8x8EVEX(pp, off, 8*g, 32*h, func(j int, r VecVirtual) {
					VPSHUFB(bswap, r, r)
					VMOVDQU32(r, w.Offset(row*(8*h+j)+32*g))
				})
			}
		}
	})
}

// batchAVX512 is the batch kernel on the rounds of avx512: lane-fulls of
// 16 whole messages, padded as they are loaded, from the initial value
// given to digests stored in place (an 8x8 transpose of each group's state
// back to lanes, byte-swapped: a 32-byte store a lane, or 16+8+4 bytes for
// SHA-224).
func batchAVX512() { batch512("sumAVX512YMMx16", sha2.SHA256) }

// batchZMM is batchAVX512 on the rounds of zmm: the lanes in one group of
// ZMM registers, handed to the digest stores as two YMM groups.
func batchZMM() { batch512("sumAVX512ZMMx16", sha2.SHA256.ZMM()) }

func batch512(name string, words sha2.Words) {
	const lanes = 16
	TEXT(name, 0, transpose.BatchSignatureIV)
	Pragma("noescape")
	Doc(transpose.BatchDoc(name, lanes, 0))
	words.Batch(name, lanes, 64, constTable(), byteSwapMask(),
		func(ptrs, bits, off Register, bswap VecVirtual, w Mem, row int) {
			var d transpose.Deferred
			padding.DeferLoads(&d, 2, ptrs, bits, off, func(g, h, j int, r VecVirtual) {
				VPSHUFB(bswap, r, r)
				VMOVDQU32(r, w.Offset(row*(8*h+j)+32*g))
			})
			d.Flush()
		},
		func(st *[2][8]VecVirtual, bswap VecVirtual, bs *transpose.BatchStream) {
			var lane [8]VecVirtual // the group's lanes, whole states
			bs.StoreDigests(0, 8, func(g int) {
				var d transpose.Deferred
				transpose.DeferRows8x8(&d, func(i int, r VecVirtual) { VMOVDQA32(st[g][i], r) }, func(j int, r VecVirtual) {
					VPSHUFB(bswap, r, r)
					lane[j] = r
				})
				d.Flush()
			}, func(l int, dst Mem) {
				transpose.StoreSized(fmt.Sprintf("%s_lane%d", name, l), lane[l%8:l%8+1], dst, []int{32, 28})
			})
		})
}

// hybrid hashes two streams with SHA-NI and 8 lanes with AVX-512 in one
// instruction stream. SHA256RNDS2 issues once every two cycles whatever
// the number of streams (measured: 1 chain 4 cycles each, 2 or 4 chains
// 2), so two streams saturate the SHA unit, yet its other pipes stay
// mostly idle: 16 independent 256-bit rotations, additions and ternary
// logic ops put among 4 SHA256RNDS2 cost 1.3 cycles on top of their 8,
// against 4.2 alone. The lane rounds fill those pipes. The SHA-NI streams
// take fixed registers X0-X13 (their legacy encoding reaches only X0-X15),
// leaving the lanes 18: one group of 8 lanes, so that neither side
// spills. Each 16 lane rounds carry hybridPasses blocks of both streams,
// spread evenly among them: the streams hash 4*hybridPasses blocks for
// every lane block.
func hybrid() {
	TEXT("blockSHANIx2AVX512YMMx8", 0, "func(fs *[2][8]uint32, fp *[2]*byte, s *[8][8]uint32, ptrs *[8]*byte, nblocks int)")
	Pragma("noescape")
	Doc(fmt.Sprintf("blockSHANIx2AVX512YMMx8 hashes nblocks blocks of 8 lanes with AVX-512 and, meanwhile, %d*nblocks blocks of two streams with SHA-NI.", 4*hybridPasses))
	r := newSHANIRider("fs", "fp")
	sha2.SHA256.LanesRiding("blockSHANIx2AVX512YMMx8", 10<<10, 1, 64, constTable(), byteSwapMask(), func(pp, off Register, bswap VecVirtual, w Mem, row int) {
		for h := range 2 {
			transpose.Words8x8EVEX(pp, off, 0, 32*h, func(j int, x VecVirtual) {
				VPSHUFB(bswap, x, x)
				VMOVDQU32(x, w.Offset(row*(8*h+j)))
			})
		}
	}, r)
}

// hybridPasses is the SHA-NI blocks of each stream per 16 lane rounds.
const hybridPasses = 1

// shaniRider is the SHA-NI side of hybrid: two streams' blocks cut into
// steps of one group of four rounds each, handed out among the lane
// rounds. Its registers are fixed ones below X16 (the SHA instructions'
// legacy encoding reaches no others), X0 the implicit operand of
// SHA256RNDS2, renamed by the CPU between the streams; the other
// instructions take their VEX forms, which do not merge into the upper
// halves the lanes leave behind: with the legacy forms the hybrid kernel
// ran no faster than its two sides one after the other.
type shaniRider struct {
	states, ptrs string // the kernel's parameters: the streams' states and pointers
	abef, cdgh   [2]VecPhysical
	m            [2][4]VecPhysical
	tmp          VecPhysical
	ptr          [2]GPVirtual
	kt           GPVirtual
	saved        Mem
	steps        []func()
}

func newSHANIRider(states, ptrs string) *shaniRider {
	return &shaniRider{
		states: states, ptrs: ptrs,
		abef: [2]VecPhysical{X1, X2}, cdgh: [2]VecPhysical{X3, X4},
		m: [2][4]VecPhysical{{X5, X6, X7, X8}, {X9, X10, X11, X12}}, tmp: X13,
	}
}

func (r *shaniRider) Begin() {
	fs := Load(Param(r.states), GP64())
	fp := Load(Param(r.ptrs), GP64())
	r.kt = GP64()
	LEAQ(constTable(), r.kt)
	r.saved = AllocLocal(64)
	for l := range 2 {
		r.ptr[l] = GP64()
		MOVQ(Mem{Base: fp, Disp: 8 * l}, r.ptr[l])
		toABEF(Mem{Base: fs, Disp: 32 * l}, r.abef[l], r.cdgh[l], r.tmp)
	}
}

func (r *shaniRider) Round(t int) {
	if t == 0 {
		r.steps = r.steps[:0]
		for range hybridPasses {
			r.block()
		}
	}
	n := len(r.steps)
	for _, step := range r.steps[t*n/16 : (t+1)*n/16] {
		step()
	}
}

func (r *shaniRider) End() {
	fs := Load(Param(r.states), GP64())
	for l := range 2 {
		fromABEF(r.abef[l], r.cdgh[l], Mem{Base: fs, Disp: 32 * l}, r.tmp)
	}
}

// block appends the steps of one block of both streams.
func (r *shaniRider) block() {
	for l := range 2 {
		r.steps = append(r.steps, func() {
			VMOVDQU(r.abef[l], r.saved.Offset(32*l))
			VMOVDQU(r.cdgh[l], r.saved.Offset(32*l+16))
			for i, m := range r.m[l] {
				VMOVDQU(Mem{Base: r.ptr[l], Disp: 16 * i}, m)
				VPSHUFB(byteSwapMask(), m, m)
			}
		})
	}
	for g := range 16 {
		r.steps = append(r.steps, func() {
			for l := range 2 {
				VPADDD(Mem{Base: r.kt, Disp: 16 * g}, r.m[l][g%4], X0)
				SHA256RNDS2(X0, r.abef[l], r.cdgh[l])
				VPSHUFD(U8(0x0e), X0, X0)
				SHA256RNDS2(X0, r.cdgh[l], r.abef[l])
				if g <= 11 {
					m := r.m[l]
					SHA256MSG1(m[(g+1)%4], m[g%4])
					VPALIGNR(U8(4), m[(g+2)%4], m[(g+3)%4], r.tmp)
					VPADDD(r.tmp, m[g%4], m[g%4])
					SHA256MSG2(m[(g+3)%4], m[g%4])
				}
			}
		})
	}
	r.steps = append(r.steps, func() {
		for l := range 2 {
			VPADDD(r.saved.Offset(32*l), r.abef[l], r.abef[l])
			VPADDD(r.saved.Offset(32*l+16), r.cdgh[l], r.cdgh[l])
			ADDQ(U8(64), r.ptr[l])
		}
	})
}

var padding = transpose.NewPadding("sha256", 64, 8, true)

// shaniX2 hashes two streams with the SHA extensions, their instructions
// interleaved group by group: SHA256RNDS2 has several cycles of latency
// but issues more often, so one stream leaves the unit idle. The code is
// the hybrid kernel's SHA-NI side (shaniRider) with nothing beside it.
func shaniX2() {
	TEXT("blockSHANIx2", 0, "func(s *[2][8]uint32, ptrs *[2]*byte, nblocks int)")
	Pragma("noescape")
	Doc("blockSHANIx2 hashes nblocks blocks of two streams with SHA-NI.")
	r := newSHANIRider("s", "ptrs")
	r.Begin()
	n := Load(Param("nblocks"), GP64())
	Label("shanix2_loop")
	r.steps = r.steps[:0]
	r.block()
	for _, step := range r.steps {
		step()
	}
	DECQ(n)
	JNZ(LabelRef("shanix2_loop"))
	r.End()
	RET()
}

// shaniX4 hashes four streams with the SHA extensions, their groups of
// four rounds interleaved. Measured on AMD Zen 3 (3.2 GHz), SHA256RNDS2
// has 4 cycles of latency and issues once a cycle (2.0 cycles each with
// two chains in flight, 1.03 with four), so two streams leave room in the
// SHA unit; but the message helpers take the same unit, SHA256MSG2 every
// 2 cycles (3 of latency), SHA256MSG1 about every 0.6. A stream's block,
// 32 SHA256RNDS2, 12 SHA256MSG2 and 12 SHA256MSG1, so needs the unit
// about 63 cycles whatever the number of streams: 3.9 cycles a group of
// four rounds. Two streams run 4.04 (3170 MB/s), four 3.84 (3330), the
// rounds of four without the schedule 2.42. Doing some groups' SHA256MSG2
// with vector instructions (sigma1 on words doubled into 64-bit lanes,
// 16 instructions) made it slower whatever the share, from 3.84 to 4.71
// cycles with one stream of four and 6.74 with all: that chain of 14
// cycles a group holds up the rounds, and its shifts and shuffles crowd
// the two pipes that take them. SHA256MSG1's sigma0 in vector
// instructions (11 a group, off any chain) was slower as well, 4.34
// cycles with a quarter of the groups and 5.98 with all: those pipes are
// the SHA unit's, so what leaves it for them costs more than it saves.
// Nor can a scalar stream ride along on the idle integer ALUs: scalar
// instructions of little mutual dependency (three RORX, two XOR and an
// ADD into one of two accumulators, a scalar round's mix) put after each
// stream's SHA256RNDS2 pair took the kernel from 2876 MB/s to 1559, 957
// and 784 with 12, 24 and 36 of them a step (medians of 5, a noisy hour;
// bench/results/2026-11-24/kernel-zen3-sha256-scalar-ops.txt): the loop,
// 742 instructions, already runs ~3 a cycle, and with them it ran 2.7-2.9
// whatever the mix, so they cost their full count. A scalar block is
// ~2,300 instructions.
//
// Four streams' states fill X1-X8 (the SHA instructions' legacy encoding
// reaches X0-X15 only), so the schedule lives in a 16-word ring a stream
// on the stack, which SHA256MSG1 and VPALIGNR take as memory operands
// (64-byte aligned, as legacy SSE memory operands must be), and only each
// stream's newest group stays in a register, keeping the schedule's chain
// out of store-to-load forwarding. W+K is stored beside the ring, so that
// the rounds load X0, its upper half by a MOVQ instead of a PSHUFD (3.95
// cycles a group with the PSHUFD).
func shaniX4() {
	const streams = 4
	// A stream's area: the saved state (32 bytes), its message ring (64)
	// and W+K of the same four groups (64).
	const area, ring, wk = 160, 32, 96
	at := interleave.Kernel(streams, area)
	abef := [streams]VecPhysical{X1, X2, X3, X4}
	cdgh := [streams]VecPhysical{X5, X6, X7, X8}
	newest := [streams]VecPhysical{X9, X10, X11, X12} // each stream's latest schedule group
	pool := interleave.NewPool(X13, X14, X15)

	sp, n, ptr := interleave.Params(streams)
	kt := GP64()
	LEAQ(constTable(), kt)
	for l := range streams {
		toABEF(Mem{Base: sp, Disp: 32 * l}, abef[l], cdgh[l], X0)
	}

	Label("shanix4_loop")
	for l := range streams {
		VMOVDQU(abef[l], at(l, 0))
		VMOVDQU(cdgh[l], at(l, 16))
		for i := range 4 { // the block's 16 words, byte-swapped, and W+K
			x := newest[l]
			if i < 3 {
				x = pool.Take()
			}
			VMOVDQU(Mem{Base: ptr[l], Disp: 16 * i}, x)
			VPSHUFB(byteSwapMask(), x, x)
			VMOVDQU(x, at(l, ring+16*i))
			t := pool.Take()
			VPADDD(Mem{Base: kt, Disp: 16 * i}, x, t)
			VMOVDQU(t, at(l, wk+16*i))
			pool.Put(t)
			if i < 3 {
				pool.Put(x)
			}
		}
	}
	for g := range 16 { // rounds 4g..4g+3 of each stream in turn
		for l := range streams {
			slot := 16 * (g % 4)
			VMOVDQU(at(l, wk+slot), X0)
			SHA256RNDS2(X0, abef[l], cdgh[l])
			VMOVQ(at(l, wk+slot+8), X0)
			SHA256RNDS2(X0, cdgh[l], abef[l])
			if g > 11 {
				continue
			}
			// Group g+4 into group g's slot: w[t-16] + sigma0(w[t-15]) +
			// w[t-7] + sigma1(w[t-2]), with group g+3 in newest[l].
			w, u := pool.Take(), pool.Take()
			VMOVDQU(at(l, ring+slot), w)
			SHA256MSG1(at(l, ring+16*((g+1)%4)), w)
			VPALIGNR(U8(4), at(l, ring+16*((g+2)%4)), newest[l], u) // words 4g+9..4g+12
			VPADDD(u, w, w)
			SHA256MSG2(newest[l], w)
			VMOVDQU(w, at(l, ring+slot))
			VPADDD(Mem{Base: kt, Disp: 16 * (g + 4)}, w, u)
			VMOVDQU(u, at(l, wk+slot))
			pool.Put(u, newest[l])
			newest[l] = w
		}
	}
	for l := range streams {
		VPADDD(at(l, 0), abef[l], abef[l])
		VPADDD(at(l, 16), cdgh[l], cdgh[l])
		ADDQ(U8(64), ptr[l])
	}
	DECQ(n)
	JNZ(LabelRef("shanix4_loop"))

	for l := range streams {
		fromABEF(abef[l], cdgh[l], Mem{Base: sp, Disp: 32 * l}, X0)
	}
	RET()
}

// toABEF loads a state a..h from m into the ABEF/CDGH order SHA256RNDS2
// works in, with t as scratch.
func toABEF(m Mem, abef, cdgh, t Op) {
	MOVOU(m, abef)               // DCBA (high to low dword)
	MOVOU(m.Offset(16), cdgh)    // HGFE
	PSHUFD(U8(0xb1), abef, abef) // CDAB
	PSHUFD(U8(0x1b), cdgh, cdgh) // EFGH
	MOVOU(abef, t)
	PALIGNR(U8(8), cdgh, abef) // ABEF
	PBLENDW(U8(0xf0), t, cdgh) // CDGH
}

// fromABEF stores an ABEF/CDGH state to m as a..h, with t as scratch.
func fromABEF(abef, cdgh Op, m Mem, t Op) {
	PSHUFD(U8(0x1b), abef, abef) // FEBA
	PSHUFD(U8(0xb1), cdgh, cdgh) // DCHG
	MOVOU(abef, t)
	PBLENDW(U8(0xf0), cdgh, abef) // DCBA
	PALIGNR(U8(8), t, cdgh)       // HGFE
	MOVOU(abef, m)
	MOVOU(cdgh, m.Offset(16))
}

// extend replaces the words of group g (in m[g%4]) with those of group
// g+4: w[t-16] + sigma0(w[t-15]) + w[t-7] + sigma1(w[t-2]).
func extend(m [4]VecVirtual, g int) {
	SHA256MSG1(m[(g+1)%4], m[g%4])
	w := XMM()
	MOVOU(m[(g+3)%4], w)
	PALIGNR(U8(4), m[(g+2)%4], w) // words 4g+9..4g+12
	PADDD(w, m[g%4])
	SHA256MSG2(m[(g+3)%4], m[g%4])
}

// constTable is the 64 round constants.
func constTable() Mem {
	k := make([]uint64, len(rounds.K))
	for i, v := range rounds.K {
		k[i] = uint64(v)
	}
	return sha2.SHA256.Consts("sha256consts", k)
}

// byteSwapMask reverses the bytes of each 32-bit word.
func byteSwapMask() Mem { return sha2.SHA256.ByteSwapMask("sha256bswap") }
