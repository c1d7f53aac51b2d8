// Command sha256 generates the amd64 SHA-256 kernels of
// internal/kernel/sha256.
package main

import (
	"github.com/hashlanes/hashlanes/internal/kernel/sha256/rounds"
	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	. "github.com/mmcloughlin/avo/reg"
)

func main() {
	ConstraintExpr("amd64,!purego")
	shani()
	Generate()
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

	abef, cdgh, t := XMM(), XMM(), XMM()
	MOVOU(Mem{Base: sp}, abef)           // DCBA (high to low dword)
	MOVOU(Mem{Base: sp, Disp: 16}, cdgh) // HGFE
	PSHUFD(U8(0xb1), abef, abef)         // CDAB
	PSHUFD(U8(0x1b), cdgh, cdgh)         // EFGH
	MOVOU(abef, t)
	PALIGNR(U8(8), cdgh, abef) // ABEF
	PBLENDW(U8(0xf0), t, cdgh) // CDGH

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
		MOVOU(m[g%4], X0)
		PADDD(Mem{Base: kt, Disp: 16 * g}, X0)
		SHA256RNDS2(X0, abef, cdgh)
		PSHUFD(U8(0x0e), X0, X0)
		SHA256RNDS2(X0, cdgh, abef)
		if g <= 11 { // words of group g+4 replace those of group g
			SHA256MSG1(m[(g+1)%4], m[g%4])
			w := XMM()
			MOVOU(m[(g+3)%4], w)
			PALIGNR(U8(4), m[(g+2)%4], w) // words 4g+9..4g+12
			PADDD(w, m[g%4])
			SHA256MSG2(m[(g+3)%4], m[g%4])
		}
	}
	PADDD(saveAB, abef)
	PADDD(saveCD, cdgh)
	ADDQ(U8(64), ptr)
	CMPQ(ptr, end)
	JB(LabelRef("shani_loop"))

	PSHUFD(U8(0x1b), abef, abef) // FEBA
	PSHUFD(U8(0xb1), cdgh, cdgh) // DCHG
	MOVOU(abef, t)
	PBLENDW(U8(0xf0), cdgh, abef) // DCBA
	PALIGNR(U8(8), t, cdgh)       // HGFE
	MOVOU(abef, Mem{Base: sp})
	MOVOU(cdgh, Mem{Base: sp, Disp: 16})
	Label("shani_done")
	RET()
}

var tables = map[string]Mem{}

// constTable is the 64 round constants.
func constTable() Mem {
	if m, ok := tables["k"]; ok {
		return m
	}
	m := GLOBL("sha256consts", RODATA|NOPTR)
	for i, k := range rounds.K {
		DATA(4*i, U32(k))
	}
	tables["k"] = m
	return m
}

// byteSwapMask reverses the bytes of each 32-bit word (the message is
// big-endian), repeated for 256-bit use.
func byteSwapMask() Mem {
	if m, ok := tables["bswap"]; ok {
		return m
	}
	m := GLOBL("sha256bswap", RODATA|NOPTR)
	for i := range 8 {
		DATA(4*i, U32(uint32(4*(i%4)+3)|uint32(4*(i%4)+2)<<8|uint32(4*(i%4)+1)<<16|uint32(4*(i%4))<<24))
	}
	tables["bswap"] = m
	return m
}
