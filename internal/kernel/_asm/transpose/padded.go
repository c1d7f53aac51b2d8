package transpose

import (
	"fmt"

	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	"github.com/mmcloughlin/avo/reg"
)

// Batch kernels hash whole short messages, padding each as they load it.
// What they share: the gathering of the messages' pointers and lengths,
// the padded loads of 32-byte rows, and the walk from one block to the
// next across lane-fulls.

// BatchMaxBlocks bounds the padded length of the messages a batch kernel
// takes, and so the size of the padding table.
const BatchMaxBlocks = 4

// BatchMaxMsgs bounds the messages of one batch kernel call: its frame
// holds a pointer and a length for each, and the call stays short enough
// for the goroutine to be preempted soon (256 one-block MD5 messages take
// about 2 µs).
const BatchMaxMsgs = 256

// Padding is the read-only data of one kernel file's padded loads, for
// blocks of Block bytes ending in a LenBytes-byte big- or little-endian
// bit length (its upper 8 bytes, if 16, zero: messages here are short).
type Padding struct {
	prefix          string
	Block, LenBytes int
	BigEndian       bool
	table, c80      Mem
	made            bool
	avx2            Mem // RowAVX2's positions and bounds (avx2Data)
	madeAVX2        bool
	rows            int // RowAVX2's rows so far, for their labels
}

// NewPadding names the padding data of a kernel file after prefix.
func NewPadding(prefix string, block, lenBytes int, bigEndian bool) *Padding {
	return &Padding{prefix: prefix, Block: block, LenBytes: lenBytes, BigEndian: bigEndian}
}

// minRem is the fewest message bytes left at the start of a row (below 0
// when the padding's length field spilled into the last block), the
// table's first entry.
func (p *Padding) minRem() int { return -p.LenBytes - (p.Block - 32) }

// data emits the table, which has for r = minRem .. bytes of a message
// left at the start of a 32-byte row a 16-byte entry at 16*(r-minRem):
// the mask of the message bytes in the row (32 bits), the mask of the
// 0x80 byte (32 bits), and, for a block's last row, the mask of the
// length's low quadword (8 bits), set when the length ends this block;
// and 32 bytes of 0x80 for the masked move.
func (p *Padding) data() {
	if p.made {
		return
	}
	p.made = true
	p.table = GLOBL(p.prefix+"padmasks", RODATA|NOPTR)
	for r := p.minRem(); r < BatchMaxBlocks*p.Block-p.LenBytes; r++ {
		at := 16 * (r - p.minRem())
		var data, pad uint32
		switch {
		case r >= 32:
			data = ^uint32(0)
		case r > 0:
			data = 1<<r - 1
		}
		if r >= 0 && r < 32 {
			pad = 1 << r
		}
		var length uint8
		if r <= 32-p.LenBytes-1 {
			length = 1 << 3
		}
		DATA(at, U32(data))
		DATA(at+4, U32(pad))
		DATA(at+8, U8(length))
	}
	p.c80 = GLOBL(p.prefix+"padbytes", RODATA|NOPTR)
	for i := range 4 {
		DATA(8*i, U64(0x8080808080808080))
	}
}

// Base emits the computation of the table base for the block at off:
// the entry of row pos of lane i is at base + 2*bits[i] - 16*pos, as
// 16*(r - minRem) is 2*bits - 16*(off+pos) - 16*minRem.
func (p *Padding) Base(off reg.Register) reg.GPVirtual {
	p.data()
	base := GP64()
	MOVQ(off, base)
	SHLQ(U8(4), base)
	NEGQ(base)
	t := GP64()
	LEAQ(p.table, t)
	LEAQ(Mem{Base: t, Index: base, Scale: 1, Disp: -16 * p.minRem()}, base)
	return base
}

// Row loads into r the 32-byte row at pos of lane's block at off, padded:
// lane's message is the bits[lane]/8 bytes at ptrs[lane]. Masked loads
// read only the message's own bytes (AVX-512 suppresses faults on
// masked-out bytes); a merge-masked move sets the 0x80 byte and, in a
// block's last row, a masked broadcast the bit length, with the masks
// taken from the table at base (see Base), so that padding costs no
// branch: six instructions a row, eight in the last.
func (p *Padding) Row(ptrs, bits, base, off reg.Register, lane, pos int, r reg.VecVirtual) {
	b := GP64()
	MOVQ(Mem{Base: bits, Disp: 8 * lane}, b)
	entry := Mem{Base: base, Index: b, Scale: 2, Disp: -16 * pos}
	data, pad := K(), K()
	KMOVD(entry, data)
	KMOVD(entry.Offset(4), pad)
	VMOVDQU8_Z(Mem{Base: LanePtr(ptrs, lane), Index: off, Scale: 1, Disp: pos}, data, r)
	VMOVDQU8(p.c80, pad, r)
	if pos == p.Block-32 {
		length := K()
		KMOVB(entry.Offset(8), length)
		if p.BigEndian {
			BSWAPQ(b)
		}
		VPBROADCASTQ(b, length, r)
	}
}

// DeferLoads queues the padded loads and transpose of the 64-byte block
// at off of groups*8 lanes of 32-bit words, handing word j of half h
// (words 8h..8h+7) of group g to done.
func (p *Padding) DeferLoads(d *Deferred, groups int, ptrs, bits, off reg.Register, done func(g, h, j int, r reg.VecVirtual)) {
	var base reg.GPVirtual
	*d = append(*d, func() { base = p.Base(off) })
	for g := range groups {
		for h := range 2 {
			load := func(i int, r reg.VecVirtual) { p.Row(ptrs, bits, base, off, 8*g+i, 32*h, r) }
			DeferRows8x8(d, load, func(j int, r reg.VecVirtual) { done(g, h, j, r) })
		}
	}
}

// BatchStream is the walk of a batch kernel through its blocks: all
// messages' pointers and bit lengths gathered into the frame, the block
// being hashed (its lane-full's entries and offset), and the next one.
type BatchStream struct {
	name               string
	lanes, block       int
	PtrArr             Mem
	Ptrs, Bits, Off    reg.GPVirtual // the block being hashed
	NPtrs, NBits, NOff reg.GPVirtual // the next block, valid after Next
	lastOff, steps     reg.GPVirtual
}

// NewBatchStream gathers msgs[idx[i]]'s base pointer and bit length for
// every i < len(idx) into the frame, and stands at block 0 of the first
// lane-full. The kernel's parameters are msgs, idx and nblocks.
func NewBatchStream(name string, lanes, block int) *BatchStream {
	s := &BatchStream{name: name, lanes: lanes, block: block}
	s.PtrArr = AllocLocal(8 * BatchMaxMsgs)
	bitArr := AllocLocal(8 * BatchMaxMsgs)
	{
		msgs := Load(Param("msgs").Base(), GP64())
		idx := Load(Param("idx").Base(), GP64())
		total := Load(Param("idx").Len(), GP64())
		i := GP64()
		XORQ(i, i)
		Label(name + "_gather")
		t, p, b := GP64(), GP64(), GP64()
		MOVLQSX(Mem{Base: idx, Index: i, Scale: 4}, t)
		LEAQ(Mem{Base: t, Index: t, Scale: 2}, t) // a slice header is 24 bytes
		MOVQ(Mem{Base: msgs, Index: t, Scale: 8}, p)
		// A nil message reads nothing, but a masked load near address 0
		// still costs a fault-suppression assist, far more than the
		// message. Any mapped address will do; msgs' own is one.
		TESTQ(p, p)
		CMOVQEQ(msgs, p)
		MOVQ(p, s.PtrArr.Idx(i, 8))
		MOVQ(Mem{Base: msgs, Index: t, Scale: 8, Disp: 8}, b)
		SHLQ(U8(3), b)
		MOVQ(b, bitArr.Idx(i, 8))
		INCQ(i)
		CMPQ(i, total)
		JB(LabelRef(name + "_gather"))
	}
	s.Ptrs, s.Bits, s.Off = GP64(), GP64(), GP64()
	LEAQ(s.PtrArr, s.Ptrs)
	LEAQ(bitArr, s.Bits)
	XORQ(s.Off, s.Off)
	nblocks := Load(Param("nblocks"), GP64())
	s.lastOff = GP64()
	LEAQ(Mem{Base: nblocks, Disp: -1}, s.lastOff)
	SHLQ(U8(log2(block)), s.lastOff)
	s.steps = GP64()
	Load(Param("idx").Len(), s.steps) // blocks to hash: lane-fulls x nblocks
	SHRQ(U8(log2(lanes)), s.steps)
	IMULQ(nblocks, s.steps)
	return s
}

// Next sets NPtrs, NBits, NOff to the next block: the next of these
// messages, or the first of the next lane-full's; after the last block,
// this one again (loaded, never used).
func (s *BatchStream) Next() {
	s.NPtrs, s.NBits, s.NOff = GP64(), GP64(), GP64()
	MOVQ(s.Ptrs, s.NPtrs)
	MOVQ(s.Bits, s.NBits)
	LEAQ(Mem{Base: s.Off, Disp: s.block}, s.NOff)
	CMPQ(s.NOff, s.lastOff)
	JLE(LabelRef(s.name + "_same"))
	XORQ(s.NOff, s.NOff)
	ADDQ(U32(8*s.lanes), s.NPtrs)
	ADDQ(U32(8*s.lanes), s.NBits)
	Label(s.name + "_same")
	CMPQ(s.steps, U8(1))
	JNE(LabelRef(s.name + "_more"))
	MOVQ(s.Ptrs, s.NPtrs)
	MOVQ(s.Bits, s.NBits)
	MOVQ(s.Off, s.NOff)
	Label(s.name + "_more")
}

// IfLast emits f, run only after the last block of a lane-full.
func (s *BatchStream) IfLast(f func()) {
	CMPQ(s.Off, s.lastOff)
	JNE(LabelRef(s.name + "_next"))
	f()
	Label(s.name + "_next")
}

// Advance moves to the next block and jumps back to loop while blocks are
// left.
func (s *BatchStream) Advance(loop string) {
	MOVQ(s.NPtrs, s.Ptrs)
	MOVQ(s.NBits, s.Bits)
	MOVQ(s.NOff, s.Off)
	DECQ(s.steps)
	JNZ(LabelRef(loop))
}

// Pipelined emits the block loop of a batch kernel that transposes the
// next block while it hashes this one: message queues the padded
// transpose of the block at off of the lanes at ptrs and bits into buf,
// hash emits one block's rounds on buf with pipe's instructions spread
// through them, and last runs after a lane-full's last block (store the
// digests, start the state afresh). bufs holds the two message buffers,
// half bytes apart.
func (s *BatchStream) Pipelined(bufs Mem, half int,
	message func(d *Deferred, ptrs, bits, off, buf reg.Register),
	hash func(buf reg.Register, pipe *Deferred),
	last func(),
) {
	cur, nxt := GP64(), GP64()
	LEAQ(bufs, cur)
	LEAQ(bufs.Offset(half), nxt)
	var first Deferred
	message(&first, s.Ptrs, s.Bits, s.Off, cur)
	first.Flush()

	loop := s.name + "_loop"
	Label(loop)
	s.Next()
	var pipe Deferred
	message(&pipe, s.NPtrs, s.NBits, s.NOff, nxt)
	hash(cur, &pipe)
	s.IfLast(last)
	XCHGQ(cur, nxt)
	s.Advance(loop)
}

// StoreDigests emits the stores of a lane-full's digests of size bytes
// (0: the kernel's size parameter): lane i's goes to out + size*idx[i],
// for the message numbers below n only. Lanes come in groups of
// groupLanes: prepare(g) readies group g's registers, then
// store(lane, dst) writes each of its lanes in order.
func (s *BatchStream) StoreDigests(size, groupLanes int, prepare func(g int), store func(lane int, dst Mem)) {
	// The lane-full's first message number is where Ptrs stands in
	// PtrArr; left is how many from there on get a digest.
	first := GP64()
	LEAQ(s.PtrArr, first)
	NEGQ(first)
	ADDQ(s.Ptrs, first)
	SHRQ(U8(3), first)
	left := GP64()
	Load(Param("n"), left)
	SUBQ(first, left)
	idx := GP64()
	Load(Param("idx").Base(), idx)
	LEAQ(Mem{Base: idx, Index: first, Scale: 4}, idx)
	out := Load(Param("out"), GP64())
	var sizeReg reg.GPVirtual
	if size == 0 {
		sizeReg = GP64()
		Load(Param("size"), sizeReg)
	}
	done := s.name + "_stored"
	for lane := range s.lanes {
		if lane%groupLanes == 0 {
			prepare(lane / groupLanes)
		}
		CMPQ(left, U32(lane))
		JLE(LabelRef(done))
		at := GP64()
		MOVLQSX(Mem{Base: idx, Disp: 4 * lane}, at)
		dst := Mem{Base: out, Index: at, Scale: 1}
		switch size {
		case 0:
			IMULQ(sizeReg, at)
		case 20: // 5 words
			LEAQ(Mem{Base: at, Index: at, Scale: 4}, at)
			dst.Scale = 4
		default:
			SHLQ(U8(log2(size)), at)
		}
		store(lane, dst)
	}
	Label(done)
}

// Halves returns ZMM words as the two groups of YMM words the digest
// stores of kernels with two YMM groups take: the words' low halves (their
// own YMM views) and their high halves, extracted.
func Halves(words []reg.VecVirtual) (lo, hi []reg.VecVirtual) {
	for _, w := range words {
		h := YMM()
		VEXTRACTI64X4(U8(1), w, h)
		lo = append(lo, w.AsY().(reg.VecVirtual))
		hi = append(hi, h)
	}
	return lo, hi
}

// Lanes4x8 turns four vectors of 8 lanes' 32-bit words a, b, c, d into
// four vectors of whole lanes: vector k holds words a..d of lane k in its
// low 128 bits and of lane 4+k in its high ones, the order of a digest's
// first 16 bytes.
func Lanes4x8(a, b, c, d reg.VecVirtual) [4]reg.VecVirtual {
	ab0, ab1, cd0, cd1 := YMM(), YMM(), YMM(), YMM()
	VPUNPCKLDQ(b, a, ab0) // a0 b0 a1 b1 | a4 b4 a5 b5
	VPUNPCKHDQ(b, a, ab1) // a2 b2 a3 b3 | a6 b6 a7 b7
	VPUNPCKLDQ(d, c, cd0)
	VPUNPCKHDQ(d, c, cd1)
	var u [4]reg.VecVirtual
	for k, pair := range [4][2]reg.VecVirtual{{ab0, cd0}, {ab0, cd0}, {ab1, cd1}, {ab1, cd1}} {
		u[k] = YMM()
		if k%2 == 0 {
			VPUNPCKLQDQ(pair[1], pair[0], u[k])
		} else {
			VPUNPCKHQDQ(pair[1], pair[0], u[k])
		}
	}
	return u
}

// BatchSignature is a batch kernel's Go signature; BatchSignatureIV that
// of one that serves several algorithms of a family, the initial value
// and the digest size (a prefix of the final state) given.
const (
	BatchSignature   = "func(msgs [][]byte, idx []int32, n int, out *byte, nblocks int)"
	BatchSignatureIV = "func(msgs [][]byte, idx []int32, n int, out *byte, nblocks int, iv *byte, size int)"
)

// StorePrefix stores the first n bytes of the 32-byte vectors vs at dst,
// n a multiple of 4: whole vectors, then 16, 8 and 4 bytes.
func StorePrefix(vs []reg.VecVirtual, dst Mem, n int) { storePrefix(vs, dst, n, true) }

// StorePrefixAVX2 is StorePrefix in VEX forms, for AVX2 kernels.
func StorePrefixAVX2(vs []reg.VecVirtual, dst Mem, n int) { storePrefix(vs, dst, n, false) }

func storePrefix(vs []reg.VecVirtual, dst Mem, n int, evex bool) {
	move, high := func(v Op, m Mem) { VMOVDQU64(v, m) }, func(v reg.VecVirtual, x Op) { VEXTRACTI32X4(U8(1), v, x) }
	if !evex {
		move, high = func(v Op, m Mem) { VMOVDQU(v, m) }, func(v reg.VecVirtual, x Op) { VEXTRACTI128(U8(1), v, x) }
	}
	for _, v := range vs {
		switch {
		case n >= 32:
			move(v, dst)
			n -= 32
			dst = dst.Offset(32)
			continue
		case n == 0:
			return
		}
		x := v.AsX()
		if n >= 16 {
			move(x, dst)
			n -= 16
			dst = dst.Offset(16)
			if n == 0 {
				return
			}
			x = XMM()
			high(v, x)
		}
		if n >= 8 {
			VMOVQ(x, dst)
			n -= 8
			dst = dst.Offset(8)
		}
		if n >= 4 {
			VPEXTRD(U8(2), x, dst) // after 8 bytes: dword 2
		}
		return
	}
}

// StoreSized stores the first size bytes of vs at dst, size the kernel's
// size parameter, one of sizes: a compare and branch for each.
func StoreSized(label string, vs []reg.VecVirtual, dst Mem, sizes []int) {
	storeSized(label, vs, dst, sizes, StorePrefix)
}

// StoreSizedAVX2 is StoreSized in VEX forms, for AVX2 kernels.
func StoreSizedAVX2(label string, vs []reg.VecVirtual, dst Mem, sizes []int) {
	storeSized(label, vs, dst, sizes, StorePrefixAVX2)
}

func storeSized(label string, vs []reg.VecVirtual, dst Mem, sizes []int, storePrefix func([]reg.VecVirtual, Mem, int)) {
	size := Load(Param("size"), GP64())
	done := label + "_stored"
	for i, n := range sizes {
		next := fmt.Sprintf("%s_not%d", label, n)
		if i < len(sizes)-1 {
			CMPQ(size, U8(n))
			JNE(LabelRef(next))
		}
		storePrefix(vs, dst, n)
		if i < len(sizes)-1 {
			JMP(LabelRef(done))
			Label(next)
		}
	}
	Label(done)
}

// DeclareBatch declares the batch kernel name of lanes lanes: with size
// 0 one that takes the initial value and the digest size as parameters
// (BatchSignatureIV), else one whose digests are size bytes
// (BatchSignature).
func DeclareBatch(name string, lanes, size int) {
	sig := BatchSignature
	if size == 0 {
		sig = BatchSignatureIV
	}
	TEXT(name, 0, sig)
	Pragma("noescape")
	Doc(BatchDoc(name, lanes, size))
}

// BatchDoc is a batch kernel's doc comment; size 0 means the kernel takes
// the initial value and the digest size as parameters.
func BatchDoc(name string, lanes, size int) string {
	if size == 0 {
		return fmt.Sprintf("%s hashes the messages msgs[idx[i]], which all pad to nblocks blocks (at most %d), from the initial value at iv to the digest, %d lanes a round, and writes the digests (the first size bytes of the final state) of the first n to out[size*idx[i]:]. len(idx) is a multiple of %d, at most %d.", name, BatchMaxBlocks, lanes, lanes, BatchMaxMsgs)
	}
	return fmt.Sprintf("%s hashes the messages msgs[idx[i]], which all pad to nblocks blocks (at most %d), from the initial value to the digest, %d lanes a round, and writes the digests of the first n to out[%d*idx[i]:]. len(idx) is a multiple of %d, at most %d.", name, BatchMaxBlocks, lanes, size, lanes, BatchMaxMsgs)
}

func log2(n int) uint8 {
	k := uint8(0)
	for 1<<k < n {
		k++
	}
	return k
}

// avx2Data emits the read-only data of RowAVX2 besides data's 0x80
// bytes: byte j of the first row is j (the bytes of a row before the
// message's end), byte 4k+3 of the second is 4k (the dwords holding any of
// them), then the bounds 32 and -1 of the bytes left, as quadwords.
func (p *Padding) avx2Data() {
	p.data()
	if p.madeAVX2 {
		return
	}
	p.madeAVX2 = true
	p.avx2 = GLOBL(p.prefix+"padavx2", RODATA|NOPTR)
	// In increasing offsets, as the assembler wants them.
	for j := range 32 {
		DATA(j, U8(j))
	}
	for j := range 32 {
		DATA(32+j, U8(j&^3))
	}
	DATA(64, U64(32))
	DATA(72, I64(-1))
}

// LastOff is the offset of a lane-full's last block, in every lane.
func (s *BatchStream) LastOff() reg.Register { return s.lastOff }

// RowAVX2 is Row for AVX2, which has no byte-masked loads: VPMASKMOVD
// loads the dwords that hold any of the message's bytes (masked-out
// dwords do not fault), a compare against the byte positions clears the
// bytes past its end and another sets the 0x80, and in the last row of the
// block at lastOff the bit length goes in with a blend. Dwords read whole
// can reach 3 bytes past the message: where those would be on another page
// than its last byte, the row is copied byte by byte into scratch (32
// bytes) instead, so that no load touches a page the message does not.
// The length's upper 8 bytes, if it has 16, stay zero: messages here are
// short.
func (p *Padding) RowAVX2(ptrs, bits, off, lastOff reg.Register, lane, pos int, scratch Mem, r reg.VecVirtual) {
	p.avx2Data()
	k := p.avx2
	label := fmt.Sprintf("%s_row%d", p.prefix, p.rows)
	p.rows++
	msg := LanePtr(ptrs, lane)
	n := GP64() // the message's bytes left at the row's start, then clamped
	MOVQ(Mem{Base: bits, Disp: 8 * lane}, n)
	SHRQ(U8(3), n)
	// Whether whole dwords at its end would cross onto the next page.
	end := GP64()
	LEAQ(Mem{Base: msg, Index: n, Scale: 1, Disp: -1}, end)
	t := GP64()
	LEAQ(Mem{Base: end, Disp: 3}, t)
	XORQ(end, t)
	SUBQ(off, n)
	if pos > 0 {
		SUBQ(U8(pos), n)
	}
	// Clamped to -1..32, n fits a byte, for the byte compares.
	CMPQ(n, U8(32))
	CMOVQGT(k.Offset(64), n)
	CMPQ(n, I8(-1))
	CMOVQLT(k.Offset(72), n)
	rb := XMM()
	VMOVQ(n, rb)
	rv := YMM()
	VPBROADCASTB(rb, rv)
	SHRQ(U8(12), t)
	JNZ(LabelRef(label + "_slow"))
	mask := YMM()
	VPCMPGTB(k.Offset(32), rv, mask)
	VPMASKMOVD(Mem{Base: msg, Index: off, Scale: 1, Disp: pos}, mask, r)
	JMP(LabelRef(label + "_loaded"))

	Label(label + "_slow")
	z := YMM()
	VPXOR(z, z, z)
	VMOVDQU(z, scratch)
	i := GP64()
	XORQ(i, i)
	src := GP64()
	LEAQ(Mem{Base: msg, Index: off, Scale: 1, Disp: pos}, src)
	Label(label + "_copy")
	CMPQ(i, n)
	JGE(LabelRef(label + "_copied"))
	b := GP32()
	MOVBLZX(Mem{Base: src, Index: i, Scale: 1}, b)
	MOVB(b.As8(), Mem{Base: scratch.Base, Index: i, Scale: 1, Disp: scratch.Disp})
	INCQ(i)
	JMP(LabelRef(label + "_copy"))
	Label(label + "_copied")
	VMOVDQU(scratch, r)

	Label(label + "_loaded")
	keep := YMM()
	VPCMPGTB(k, rv, keep) // bytes before the end
	VPAND(keep, r, r)
	VPCMPEQB(k, rv, keep) // the byte at the end
	VPAND(p.c80, keep, keep)
	VPOR(keep, r, r)
	if pos == p.Block-32 {
		CMPQ(off, lastOff)
		JNE(LabelRef(label + "_body"))
		l := GP64()
		MOVQ(Mem{Base: bits, Disp: 8 * lane}, l)
		if p.BigEndian {
			BSWAPQ(l)
		}
		lx := XMM()
		VMOVQ(l, lx)
		ly := YMM()
		VPBROADCASTQ(lx, ly)
		VPBLENDD(U8(0xc0), ly, r, r)
		Label(label + "_body")
	}
}
