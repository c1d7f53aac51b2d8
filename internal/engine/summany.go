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
	order  []int32 // message indices grouped by padded block count
}

// SumMany appends the digest of each message to dst, in input order.
//
// Short messages (up to stageBlocks padded blocks) are grouped by block
// count, so that the lanes of a round start and finish together, and each
// is staged whole with its padding: one kernel call hashes a lane-full of
// them. Longer messages share lanes that are refilled with the next one as
// soon as one ends. Every call runs the kernel that moves the most bytes
// for the lanes busy. No goroutine; beyond growing dst, no allocation.
func (s *Server[S]) SumMany(dst []byte, msgs [][]byte) []byte {
	size := s.spec.Size
	base := len(dst)
	dst = slices.Grow(dst, len(msgs)*size)[:base+len(msgs)*size]
	if len(msgs) == 0 {
		return dst
	}
	b := s.batches.Get().(*batch[S])
	defer s.batches.Put(b)
	out := dst[base:]

	// Counting sort of the indices by padded block count; long ones last.
	var count [stageBlocks + 2]int
	for _, m := range msgs {
		count[min(s.spec.paddedBlocks(len(m)), stageBlocks+1)]++
	}
	start := count
	at := 0
	for c := range start {
		start[c], at = at, at+count[c]
	}
	b.order = slices.Grow(b.order[:0], len(msgs))[:len(msgs)]
	for i, m := range msgs {
		c := min(s.spec.paddedBlocks(len(m)), stageBlocks+1)
		b.order[start[c]] = int32(i)
		start[c]++
	}
	at = 0
	for c := 1; c <= stageBlocks; c++ {
		s.sumStaged(b, out, msgs, b.order[at:at+count[c]], c)
		at += count[c]
	}
	s.sumLong(b, out, msgs, b.order[at:])
	return dst
}

// sumStaged hashes messages of exactly c padded blocks, a lane-full at a
// time, each staged whole in b.stage.
func (s *Server[S]) sumStaged(b *batch[S], out []byte, msgs [][]byte, idx []int32, c int) {
	size := s.spec.Size
	width := max(1, s.lanes)
	for len(idx) > 0 {
		n := min(len(idx), width)
		k, used := s.kern.choose(n)
		for j, i := range idx[:used] {
			m := msgs[i]
			buf := b.stage[j][:]
			copy(buf, m)
			s.spec.padAfter(buf, len(m), uint64(len(m)))
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
		l.ntail = len(s.spec.pad(&l.tail, m[whole:], uint64(len(m))))
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
		k, used := s.kern.choose(busy)
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
