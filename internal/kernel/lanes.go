package kernel

import "unsafe"

// ToLanes32 prepares a call of an assembly kernel whose states of 32-bit
// words are kept lane-major (word w of lane i at ls[w*len(p)+i]), for any
// state type, as a hybrid kernel's wrapper (Hybrid32) needs: it copies the
// masked lanes' states into ls and their pointers into p, and points
// masked-out lanes at zeros, so the kernel can load every lane without a
// branch and never touches memory it was not given. It reports false when
// there is nothing to hash, and panics when nblocks is over the per-call
// bound. The generated wrappers of the other kernels move their states
// word by word for their own shape instead (internal/kernel/_asm/lanewrap).
func ToLanes32[S any](ls []uint32, p []*byte, states *[MaxLanes]*S, ptrs *[MaxLanes]*byte, mask uint32, nblocks, maxBlocks int, zeros *byte) bool {
	return toLayout(ls, len(p), 1, p, states, ptrs, mask, nblocks, maxBlocks, zeros)
}

// FromLanes32 copies the masked lanes' states back from ls.
func FromLanes32[S any](ls []uint32, lanes int, states *[MaxLanes]*S, mask uint32) {
	fromLayout(ls, lanes, 1, lanes, states, mask)
}

// ToRows32 is ToLanes32 for kernels that keep each lane's state in a row of
// stride words (lane i's word w at rows[i*stride+w]), as the SHA-NI kernels
// do, one stream to an XMM register.
func ToRows32[S any](rows []uint32, stride int, p []*byte, states *[MaxLanes]*S, ptrs *[MaxLanes]*byte, mask uint32, nblocks, maxBlocks int, zeros *byte) bool {
	return toLayout(rows, 1, stride, p, states, ptrs, mask, nblocks, maxBlocks, zeros)
}

// FromRows32 copies the masked lanes' states back from rows.
func FromRows32[S any](rows []uint32, stride, lanes int, states *[MaxLanes]*S, mask uint32) {
	fromLayout(rows, 1, stride, lanes, states, mask)
}

// Word is the word of a chaining state.
type Word interface{ uint32 | uint64 }

// Words views a state as a slice of its words.
func Words[W Word, S any](s *S) []W {
	var w W
	return unsafe.Slice((*W)(unsafe.Pointer(s)), unsafe.Sizeof(*s)/unsafe.Sizeof(w))
}

// Work reports whether a call of a kernel of lanes lanes has blocks to
// hash in the lanes of mask, and panics when nblocks is over the call's
// bound.
func Work(mask uint32, lanes, nblocks, maxBlocks int) bool {
	if nblocks <= 0 || mask&(1<<lanes-1) == 0 {
		return false
	}
	if nblocks > maxBlocks {
		panic("kernel: too many blocks for one call")
	}
	return true
}

// toLayout copies word w of lane i to buf[w*wordStride+i*laneStride].
func toLayout[W Word, S any](buf []W, wordStride, laneStride int, p []*byte, states *[MaxLanes]*S, ptrs *[MaxLanes]*byte, mask uint32, nblocks, maxBlocks int, zeros *byte) bool {
	lanes := len(p)
	if !Work(mask, lanes, nblocks, maxBlocks) {
		return false
	}
	for i := range lanes {
		if mask&(1<<i) == 0 {
			p[i] = zeros
			continue
		}
		if s := Words[W](states[i]); wordStride == 1 {
			// A row: one copy, not a store a word: about half the time
			// of word-by-word stores, which cost SumMany's short messages
			// a third of the kernel's own time (BenchmarkRows; docs/figures.md,
			// "Figures behind the code").
			copy(buf[i*laneStride:], s)
		} else {
			scatter(buf[i*laneStride:], s, wordStride)
		}
		p[i] = ptrs[i]
	}
	return true
}

func fromLayout[W Word, S any](buf []W, wordStride, laneStride, lanes int, states *[MaxLanes]*S, mask uint32) {
	for i := range lanes {
		if mask&(1<<i) == 0 {
			continue
		}
		s := Words[W](states[i])
		if wordStride == 1 {
			copy(s, buf[i*laneStride:])
			continue
		}
		gather(s, buf[i*laneStride:], wordStride)
	}
}

// scatter stores the words of s in dst at stride words apart, and gather
// loads them back: a lane's state in a word-major layout. One bounds check
// a lane and a pointer that steps, not a checked index a word, which cost
// SumMany's one-block messages two thirds of their MD5 kernel call
// (BenchmarkLanes; docs/figures.md, "isa-l_crypto, side by side").
func scatter[W Word](dst, s []W, stride int) {
	if len(s) == 0 {
		return
	}
	_ = dst[(len(s)-1)*stride]
	// The pointer steps before each store but the first: never past the
	// last word, where it would leave dst's allocation.
	p, step := unsafe.Pointer(unsafe.SliceData(dst)), uintptr(stride)*unsafe.Sizeof(s[0])
	*(*W)(p) = s[0]
	for _, v := range s[1:] {
		p = unsafe.Add(p, step)
		*(*W)(p) = v
	}
}

func gather[W Word](s, src []W, stride int) {
	if len(s) == 0 {
		return
	}
	_ = src[(len(s)-1)*stride]
	p, step := unsafe.Pointer(unsafe.SliceData(src)), uintptr(stride)*unsafe.Sizeof(s[0])
	s[0] = *(*W)(p)
	for w := 1; w < len(s); w++ {
		p = unsafe.Add(p, step)
		s[w] = *(*W)(p)
	}
}

// Hybrid32 is the scratch of a hybrid kernel call with 32-bit words, two
// fast streams and 8 lanes: lanes 0 and 1 of the engine's arrays are the
// fast streams, kept as rows of 8 words (as the SHA-NI kernels keep them),
// lanes 2..9 are the lanes, kept lane-major. Masked-out lanes and streams
// read zeros, so the kernel needs no branch.
type Hybrid32[S any] struct {
	Rows  [2][8]uint32
	Fast  [2]*byte
	Lanes [8 * 8]uint32 // word w of lane i at Lanes[8w+i]
	Ptrs  [8]*byte

	states [MaxLanes]*S // the lanes' states and pointers, from index 0
	ptrs   [MaxLanes]*byte
	mask   uint32
}

// Load copies the masked states and pointers in, for a call hashing
// nblocks blocks a lane and fastBlocks*nblocks a fast stream. It reports
// false when there is nothing to hash, and panics when a stream's blocks
// are over maxBlocks.
func (h *Hybrid32[S]) Load(states *[MaxLanes]*S, ptrs *[MaxLanes]*byte, mask uint32, nblocks, fastBlocks, maxBlocks int, zeros *byte) bool {
	if nblocks <= 0 || mask&(1<<10-1) == 0 {
		return false
	}
	h.mask = mask
	h.Fast = [2]*byte{zeros, zeros}
	h.Ptrs = [8]*byte{zeros, zeros, zeros, zeros, zeros, zeros, zeros, zeros}
	ToRows32(unsafe.Slice(&h.Rows[0][0], 16), 8, h.Fast[:], states, ptrs, mask&3, fastBlocks*nblocks, maxBlocks, zeros)
	copy(h.states[:8], states[2:10])
	copy(h.ptrs[:8], ptrs[2:10])
	ToLanes32(h.Lanes[:], h.Ptrs[:], &h.states, &h.ptrs, mask>>2&0xff, nblocks, maxBlocks, zeros)
	return true
}

// Store copies the masked states back out.
func (h *Hybrid32[S]) Store(states *[MaxLanes]*S) {
	FromRows32(unsafe.Slice(&h.Rows[0][0], 16), 8, 2, states, h.mask&3)
	FromLanes32(h.Lanes[:], 8, &h.states, h.mask>>2&0xff)
}
