package main

// The hybrid: two SHA-NI streams riding in the free slots of eight AVX-512
// lanes.

import (
	"fmt"

	"github.com/hashlanes/hashlanes/internal/kernel/_asm/sha2"
	"github.com/hashlanes/hashlanes/internal/kernel/_asm/transpose"
	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	. "github.com/mmcloughlin/avo/reg"
)

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
