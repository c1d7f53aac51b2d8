// Command sha1 generates the amd64 SHA-1 kernels of internal/kernel/sha1.
package main

import (
	"fmt"

	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	. "github.com/mmcloughlin/avo/reg"
)

func main() {
	ConstraintExpr("amd64,!purego")
	shani(1)
	shani(2)
	Generate()
}

// stream is one SHA-1 stream's registers in a SHA-NI kernel: ABCD (A in
// the top dword), the two E registers that SHA1NEXTE and SHA1RNDS4
// alternate, and the four message registers of the schedule.
type stream struct {
	abcd VecVirtual
	e    [2]VecVirtual
	m    [4]VecVirtual
	ptr  GPVirtual
}

// shani hashes `streams` streams with the SHA extensions, their
// instructions interleaved group by group: SHA1RNDS4 has several cycles of
// latency but issues more often, so one stream leaves the unit idle. The
// 20 groups of 4 rounds follow Intel's SHA-NI schedule; saved states live
// on the stack (legacy-SSE memory operands would need 16-byte alignment,
// which Go's stack does not give, so they go through a register).
func shani(streams int) {
	name := "blockSHANI"
	sig := "func(s *[5]uint32, p []byte)"
	if streams > 1 {
		name = fmt.Sprintf("blockSHANIx%d", streams)
		sig = fmt.Sprintf("func(s *[%d][8]uint32, ptrs *[%d]*byte, nblocks int)", streams, streams)
	}
	TEXT(name, 0, sig)
	Pragma("noescape")
	Doc(fmt.Sprintf("%s hashes whole blocks of %d stream(s) with SHA-NI.", name, streams))
	saved := AllocLocal(32 * streams)
	sp := Load(Param("s"), GP64())
	n := GP64()
	st := make([]stream, streams)
	if streams == 1 {
		st[0].ptr = GP64()
		Load(Param("p").Base(), st[0].ptr)
		Load(Param("p").Len(), n)
		SHRQ(U8(6), n)
		JZ(LabelRef(name + "_done"))
	} else {
		pp := Load(Param("ptrs"), GP64())
		Load(Param("nblocks"), n)
		for l := range st {
			st[l].ptr = GP64()
			MOVQ(Mem{Base: pp, Disp: 8 * l}, st[l].ptr)
		}
	}
	row := 32 // bytes between states in the multi-stream layout
	for l := range st {
		s := &st[l]
		s.abcd, s.e[0], s.e[1] = XMM(), XMM(), XMM()
		MOVOU(Mem{Base: sp, Disp: row * l}, s.abcd)
		PSHUFD(U8(0x1b), s.abcd, s.abcd) // A in the top dword
		PXOR(s.e[0], s.e[0])
		PINSRD(U8(3), Mem{Base: sp, Disp: row*l + 16}, s.e[0]) // E in the top dword
	}
	Label(name + "_loop")
	mask := XMM()
	MOVOU(reverseMask(), mask)
	for l := range st {
		MOVOU(st[l].abcd, saved.Offset(32*l))
		MOVOU(st[l].e[0], saved.Offset(32*l+16))
	}
	for g := range 20 {
		for l := range st {
			group(&st[l], g, mask)
		}
	}
	for l := range st {
		s := &st[l]
		t := XMM()
		MOVOU(saved.Offset(32*l+16), t)
		SHA1NEXTE(t, s.e[0])
		MOVOU(saved.Offset(32*l), t)
		PADDD(t, s.abcd)
		ADDQ(U8(64), s.ptr)
	}
	DECQ(n)
	JNZ(LabelRef(name + "_loop"))
	for l := range st {
		s := &st[l]
		PSHUFD(U8(0x1b), s.abcd, s.abcd)
		MOVOU(s.abcd, Mem{Base: sp, Disp: row * l})
		PEXTRD(U8(3), s.e[0], Mem{Base: sp, Disp: row*l + 16})
	}
	Label(name + "_done")
	RET()
}

// group emits rounds 4g..4g+3 of one stream and the message schedule work
// that goes with them.
func group(s *stream, g int, mask VecVirtual) {
	cur := s.m[g%4]
	if g < 4 {
		s.m[g%4] = XMM()
		cur = s.m[g%4]
		MOVOU(Mem{Base: s.ptr, Disp: 16 * g}, cur)
		PSHUFB(mask, cur) // big-endian words, w0 in the top dword
	}
	ea, eb := s.e[g%2], s.e[(g+1)%2]
	if g == 0 {
		PADDD(cur, ea)
	} else {
		SHA1NEXTE(cur, ea)
	}
	MOVOU(s.abcd, eb)
	if g >= 3 && g <= 18 {
		SHA1MSG2(cur, s.m[(g+1)%4])
	}
	SHA1RNDS4(U8(g/5), ea, s.abcd)
	if g >= 1 && g <= 16 {
		SHA1MSG1(cur, s.m[(g+3)%4])
	}
	if g >= 2 && g <= 17 {
		PXOR(cur, s.m[(g+2)%4])
	}
}

var reverse Mem
var haveReverse bool

// reverseMask reverses the 16 bytes of a register: each big-endian word
// byte-swapped, and w0 moved to the top dword where SHA1RNDS4 wants it.
func reverseMask() Mem {
	if !haveReverse {
		reverse = GLOBL("sha1reverse", RODATA|NOPTR)
		for i := range 16 {
			DATA(i, U8(15-i))
		}
		haveReverse = true
	}
	return reverse
}
