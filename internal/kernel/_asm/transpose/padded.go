package transpose

import (
	"fmt"

	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	"github.com/mmcloughlin/avo/reg"
)

// Batch kernels hash whole short messages, padding each as they load it.
// What they share for 64-byte blocks with a 64-bit length field (MD5,
// SHA-1, SHA-256): the gathering of the messages' pointers and lengths,
// the padded loads, and the walk from one block to the next across
// lane-fulls.

// BatchMaxBlocks bounds the padded length of the messages a batch kernel
// takes, and so the size of the padding table.
const BatchMaxBlocks = 4

// BatchMaxMsgs bounds the messages of one batch kernel call: its frame
// holds a pointer and a length for each, and the call stays short enough
// for the goroutine to be preempted soon (256 one-block MD5 messages take
// about 2 µs).
const BatchMaxMsgs = 256

// Padding is the read-only data of one kernel file's padded loads.
type Padding struct {
	prefix     string
	table, c80 Mem
	made       bool
}

// NewPadding names the padding data of a kernel file after prefix.
func NewPadding(prefix string) *Padding { return &Padding{prefix: prefix} }

// masks returns the table that has, for rem = -8 .. 64*BatchMaxBlocks-9
// bytes of a message left at the start of a block, a 32-byte entry at
// 32*(rem+8): the mask of the message bytes in the block (64 bits), the
// mask of the 0x80 byte (64 bits), and the mask of the length's quadword
// in the block's upper 32 bytes (8 bits), set when the length ends this
// block (rem <= 55); and 32 bytes of 0x80 for the masked move.
func (p *Padding) data() {
	if p.made {
		return
	}
	p.made = true
	p.table = GLOBL(p.prefix+"padmasks", RODATA|NOPTR)
	for rem := -8; rem < 64*BatchMaxBlocks-8; rem++ {
		at := 32 * (rem + 8)
		var data, pad uint64
		switch {
		case rem >= 64:
			data = ^uint64(0)
		case rem > 0:
			data = 1<<rem - 1
		}
		if rem >= 0 && rem < 64 {
			pad = 1 << rem
		}
		var length uint8
		if rem <= 55 {
			length = 1 << 3
		}
		DATA(at, U64(data))
		DATA(at+8, U64(pad))
		DATA(at+16, U8(length))
	}
	p.c80 = GLOBL(p.prefix+"padbytes", RODATA|NOPTR)
	for i := range 4 {
		DATA(8*i, U64(0x8080808080808080))
	}
}

// DeferLoads queues the padded loads and transpose of the block at off of
// groups*8 lanes, handing word j of half h (words 8h..8h+7) of group g to
// done. Lane i's message is the bits[i]/8 bytes at ptrs[i]. Masked loads
// read only the message's own bytes (AVX-512 suppresses faults on
// masked-out bytes); a merge-masked move sets the 0x80 byte and a masked
// broadcast the bit length (byte-swapped if bigEndian), with the masks for
// "rem = length - off" bytes left taken from the table, so that a lane's
// padding costs no branch and about a dozen instructions a block.
func (p *Padding) DeferLoads(d *Deferred, groups int, ptrs, bits, off reg.Register, bigEndian bool, done func(g, h, j int, r reg.VecVirtual)) {
	p.data()
	// Entry rem+8 is at table + 32*(rem+8), and 32*rem is 4*bits - 32*off.
	base := GP64()
	*d = append(*d, func() {
		MOVQ(off, base)
		SHLQ(U8(5), base)
		NEGQ(base)
		t := GP64()
		LEAQ(p.table, t)
		LEAQ(Mem{Base: t, Index: base, Scale: 1, Disp: 32 * 8}, base)
	})
	for g := range groups {
		for h := range 2 {
			load := func(i int, r reg.VecVirtual) {
				lane := 8*g + i
				b := GP64()
				MOVQ(Mem{Base: bits, Disp: 8 * lane}, b)
				entry := Mem{Base: base, Index: b, Scale: 4}
				data, pad := K(), K()
				KMOVD(entry.Offset(4*h), data)
				KMOVD(entry.Offset(8+4*h), pad)
				VMOVDQU8_Z(Mem{Base: LanePtr(ptrs, lane), Index: off, Scale: 1, Disp: 32 * h}, data, r)
				VMOVDQU8(p.c80, pad, r)
				if h == 1 {
					length := K()
					KMOVB(entry.Offset(16), length)
					if bigEndian {
						BSWAPQ(b)
					}
					VPBROADCASTQ(b, length, r)
				}
			}
			DeferRows8x8(d, load, func(j int, r reg.VecVirtual) { done(g, h, j, r) })
		}
	}
}

// BatchStream is the walk of a batch kernel through its blocks: all
// messages' pointers and bit lengths gathered into the frame, the block
// being hashed (its lane-full's entries and offset), and the next one.
type BatchStream struct {
	name               string
	lanes              int
	PtrArr             Mem
	Ptrs, Bits, Off    reg.GPVirtual // the block being hashed
	NPtrs, NBits, NOff reg.GPVirtual // the next block, valid after Next
	lastOff, steps     reg.GPVirtual
}

// NewBatchStream gathers msgs[idx[i]]'s base pointer and bit length for
// every i < len(idx) into the frame, and stands at block 0 of the first
// lane-full. The kernel's parameters are msgs, idx and nblocks.
func NewBatchStream(name string, lanes int) *BatchStream {
	s := &BatchStream{name: name, lanes: lanes}
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
	SHLQ(U8(6), s.lastOff)
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
	LEAQ(Mem{Base: s.Off, Disp: 64}, s.NOff)
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

// Round returns, for the lane-full being hashed, how many of its lanes get
// a digest (n minus the number of its first message, may be below 0 or
// above lanes) and the address of its first entry of idx.
func (s *BatchStream) Round() (left, idx reg.GPVirtual) {
	first := GP64()
	LEAQ(s.PtrArr, first)
	NEGQ(first)
	ADDQ(s.Ptrs, first)
	SHRQ(U8(3), first)
	left = GP64()
	Load(Param("n"), left)
	SUBQ(first, left)
	idx = GP64()
	Load(Param("idx").Base(), idx)
	LEAQ(Mem{Base: idx, Index: first, Scale: 4}, idx)
	return left, idx
}

// BatchSignature is a batch kernel's Go signature.
const BatchSignature = "func(msgs [][]byte, idx []int32, n int, out *byte, nblocks int)"

// BatchDoc is a batch kernel's doc comment.
func BatchDoc(name string, lanes, size int) string {
	return fmt.Sprintf("%s hashes the messages msgs[idx[i]], which all pad to nblocks blocks (at most %d), from the initial value to the digest, %d lanes a round, and writes the digests of the first n to out[%d*idx[i]:]. len(idx) is a multiple of %d, at most %d.", name, BatchMaxBlocks, lanes, size, lanes, BatchMaxMsgs)
}

func log2(n int) uint8 {
	k := uint8(0)
	for 1<<k < n {
		k++
	}
	return k
}
