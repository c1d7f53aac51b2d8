package engine

import (
	"slices"

	"github.com/hashlanes/hashlanes/internal/kernel"
)

// stageBlocks bounds the messages SumMany stages whole: up to this many
// padded blocks a message is copied with its padding into a lane buffer,
// so that one kernel call hashes it from start to end; copying 4 blocks
// costs less than the kernel rounds it saves.
const stageBlocks = 4

// batchLane is one long message in flight: its whole blocks are read from
// the message itself, its final block(s) from tail, padded in place.
type batchLane[S any] struct {
	msg   int    // index of the message
	body  []byte // whole blocks not yet hashed
	tail  [2 * maxBlockSize]byte
	ntail int // bytes in tail
	toff  int // tail bytes already hashed
	state S
}

// batch is SumMany's scratch, pooled so that a call allocates nothing.
type batch[S any] struct {
	lanes  [kernel.MaxLanes]batchLane[S]
	states [kernel.MaxLanes]*S
	ptrs   [kernel.MaxLanes]*byte
	stage  [kernel.MaxLanes][stageBlocks * maxBlockSize]byte
	sst    [kernel.MaxLanes]S
	// short[c] gathers the indices of messages of c padded blocks until
	// a batch kernel call's worth is ready; counts holds how many each
	// has, packed (see count). Its classes are 1..stageBlocks, and the
	// array's length a power of two, so that gather's index needs no check.
	short  [shortClasses][kernel.MaxBatchMsgs]int32
	counts uint64
	long   []int32 // indices of the longer messages
}

// shortClasses is batch.short's length: above stageBlocks, a power of two.
const shortClasses = 8

// The packed counts and gather's unchecked index hold only if these
// constants are not negative (a compile error otherwise).
const (
	_ uint = shortClasses - stageBlocks - 1
	_ uint = 0 - shortClasses&(shortClasses-1)
	_ uint = 64 - countBits*stageBlocks
	_ uint = 1<<countBits - kernel.MaxBatchMsgs
)

// countBits is the bits of one class's count in batch.counts, class c
// (1..stageBlocks) at countBits*(c-1).
const countBits = 16

// count is how many messages short[c] holds.
func (b *batch[S]) count(c int) int {
	return int(b.counts >> (countBits * (c - 1)) & (1<<countBits - 1))
}

// clear empties short[c].
func (b *batch[S]) clear(c int) {
	b.counts &^= (1<<countBits - 1) << (countBits * (c - 1))
}

// SumMany appends the digest of each message to dst, in input order.
//
// Short messages (up to stageBlocks padded blocks) are gathered by block
// count, so that the lanes of a round start and finish together, and
// hashed as soon as kernel.MaxBatchMsgs of a count are gathered: by a
// batch kernel, which pads them as it loads them and streams lane-full
// after lane-full, or else each staged whole with its padding so that one
// kernel call hashes a lane-full from start to end. Longer
// messages share lanes that are refilled with the next one as soon as one
// ends. Every call runs the kernel that moves the most bytes for the lanes
// busy. No goroutine; beyond growing dst, no allocation.
func (s *Server[S]) SumMany(dst []byte, msgs [][]byte) []byte {
	size := s.spec.Size
	base := len(dst)
	dst = slices.Grow(dst, len(msgs)*size)[:base+len(msgs)*size]
	if len(msgs) == 0 {
		return dst
	}
	// Several messages: a choice to make, and work towards the
	// measurement (at least a block a message).
	if len(msgs) >= 2 && s.choice().Due(len(msgs)*s.spec.BlockSize) {
		s.choice().Settle()
	}
	b := s.batches.Get().(*batch[S])
	defer s.batches.Put(b)
	out := dst[base:]

	b.long = b.long[:0]
	for i := 0; ; {
		c, next := b.gather(msgs, i, s.spec.LenBytes, s.spec.BlockSize)
		if c == 0 {
			break
		}
		s.sumShort(b, out, msgs, b.short[c][:], c)
		b.clear(c)
		i = next
	}
	for c := 1; c <= stageBlocks; c++ {
		if n := b.count(c); n > 0 {
			s.sumShort(b, out, msgs, b.short[c][:n], c)
			b.clear(c)
		}
	}
	s.sumLong(b, out, msgs, b.long)
	return dst
}

// gather files the messages from i on by padded block count, up to
// stageBlocks, into b.short, and the longer ones into b.long, until a
// class holds kernel.MaxBatchMsgs messages: it returns that class and
// where to go on, or 0 at the end of msgs. It runs once a message, so
// it is kept to few instructions: the counts stay in a register, packed
// (a count in memory was loaded right after the previous message's store
// to it), and the block count is a multiplication rather than a shift by
// a variable count, which on Intel's cores is three operations tied to
// the flags and to the one register that holds counts. SumMany of 10,000
// URL paths spent a quarter of its time here.
func (b *batch[S]) gather(msgs [][]byte, i, lenBytes, blockSize int) (int, int) {
	maxShort := uint(stageBlocks*blockSize - lenBytes - 1) // the longest message of stageBlocks padded blocks
	add, scale := uint64(lenBytes+blockSize), uint64(1)<<(32-paddedShift(blockSize))
	counts := b.counts
	for ; i < len(msgs); i++ {
		l := uint(len(msgs[i]))
		if l > maxShort {
			b.long = append(b.long, int32(i))
			continue
		}
		c := (uint64(l) + add) * scale >> 32 // paddedBlocks, l being short
		at := countBits * (c - 1) % 64
		n := counts >> at & (1<<countBits - 1)
		b.short[c%shortClasses][n%kernel.MaxBatchMsgs] = int32(i)
		counts += 1 << at
		if n == kernel.MaxBatchMsgs-1 {
			b.counts = counts
			return int(c), i + 1
		}
	}
	b.counts = counts
	return 0, i
}

// sumShort hashes messages of exactly c padded blocks.
func (s *Server[S]) sumShort(b *batch[S], out []byte, msgs [][]byte, idx []int32, c int) {
	if len(s.kern.Batch) > 0 && c <= kernel.MaxBatchBlocks {
		s.sumBatch(s.Batches(), out, msgs, idx, c)
		return
	}
	s.sumStaged(b, out, msgs, idx, c)
}

// sumBatch hashes messages of c padded blocks on the batch kernels, which
// take the indices as they are and write the digests in place: whole
// lane-fulls on the widest, a last partial one on the narrowest that takes
// it. idx's array has room up to kernel.MaxBatchMsgs for the lanes past
// the messages, which hash a copy of the first.
func (s *Server[S]) sumBatch(set []kernel.Batch, out []byte, msgs [][]byte, idx []int32, c int) {
	n := len(idx)
	wide := set[len(set)-1]
	rest := batchFor(set, n%wide.Lanes)
	if rest.Lanes == wide.Lanes || n < wide.Lanes {
		whole := (n + rest.Lanes - 1) / rest.Lanes * rest.Lanes
		fillFrom(idx[:whole], n)
		rest.Fn(msgs, idx[:whole], n, &out[0], c)
		return
	}
	full := n / wide.Lanes * wide.Lanes
	wide.Fn(msgs, idx[:full], full, &out[0], c)
	if full < n {
		tail := idx[full : full+rest.Lanes]
		fillFrom(tail, n-full)
		rest.Fn(msgs, tail, n-full, &out[0], c)
	}
}

// fillFrom fills idx from n on with idx[0].
func fillFrom(idx []int32, n int) {
	for j := n; j < len(idx); j++ {
		idx[j] = idx[0]
	}
}

// sumStaged hashes messages of exactly c padded blocks, a lane-full at a
// time, each staged whole in b.stage.
func (s *Server[S]) sumStaged(b *batch[S], out []byte, msgs [][]byte, idx []int32, c int) {
	size := s.spec.Size
	width := max(1, s.lanes)
	for len(idx) > 0 {
		n := min(len(idx), width)
		k, used := s.choice().Pick(n, false)
		for j, i := range idx[:used] {
			m := msgs[i]
			buf := b.stage[j][:]
			copy(buf, m)
			padAfter(s.spec, buf, len(m), uint64(len(m)))
			b.sst[j] = s.spec.Init
			b.states[j], b.ptrs[j] = &b.sst[j], &b.stage[j][0]
		}
		s.round(k, used, c, &b.states, &b.ptrs)
		for j, i := range idx[:used] {
			at := int(i) * size
			s.spec.AppendDigest(out[at:at], &b.sst[j]) // within out's capacity: writes in place
		}
		idx = idx[used:]
	}
}

// sumLong hashes long messages in lanes that are refilled with the next
// message as soon as one ends, so long and longer ones mix without idle
// lanes.
func (s *Server[S]) sumLong(b *batch[S], out []byte, msgs [][]byte, idx []int32) {
	if len(idx) == 0 {
		return
	}
	bs, size := s.spec.BlockSize, s.spec.Size
	width := max(1, s.lanes)
	next, busy := 0, 0
	start := func(l *batchLane[S]) {
		m := msgs[idx[next]]
		whole := len(m) / bs * bs
		l.msg, l.body, l.toff, l.state = int(idx[next]), m[:whole], 0, s.spec.Init
		l.ntail = len(pad(s.spec, &l.tail, m[whole:], uint64(len(m))))
		next++
	}
	for i := range width {
		b.states[i] = &b.lanes[i].state
	}
	for busy < width && next < len(idx) {
		start(&b.lanes[busy])
		busy++
	}
	for busy > 0 {
		k, used := s.choice().Pick(busy, false)
		nb := kernel.MaxLaneBytes / bs
		for i := range used {
			l := &b.lanes[i]
			if len(l.body) > 0 {
				nb = min(nb, len(l.body)/bs)
				b.ptrs[i] = &l.body[0]
			} else {
				nb = min(nb, (l.ntail-l.toff)/bs)
				b.ptrs[i] = &l.tail[l.toff]
			}
		}
		s.round(k, used, nb, &b.states, &b.ptrs)
		for i := used - 1; i >= 0; i-- { // backwards: a lane moved into i is already advanced
			l := &b.lanes[i]
			if len(l.body) > 0 {
				l.body = l.body[nb*bs:]
			} else {
				l.toff += nb * bs
			}
			if len(l.body) > 0 || l.toff < l.ntail {
				continue
			}
			at := l.msg * size
			s.spec.AppendDigest(out[at:at], &l.state)
			if next < len(idx) {
				start(l)
				continue
			}
			busy--
			if i != busy {
				*l = b.lanes[busy] // keep lanes dense
			}
		}
	}
}
