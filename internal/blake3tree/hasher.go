package blake3tree

import "errors"

// group is the bytes of a chunk group: the chunks one kernel call
// compresses.
const group = 16 * chunk

// Hasher is BLAKE3 of a stream, in mode Mode: bytes are held until a
// whole chunk group and one byte more have come (the last chunk is
// compressed only at the end, as the root or the tree's last leaf), and
// each group is compressed on the kernels (16 chunks a call, and their
// parents) rather than chunk after chunk (docs/figures.md, "Figures behind the code"). Its state is plain data: a copy is a
// clone.
type Hasher struct {
	mode    Mode
	counter uint64        // chunks compressed into stack
	stack   [64][8]uint32 // chaining values of complete subtrees, one per set bit of counter
	buf     [group]byte   // bytes not compressed yet, from chunk counter on
	n       int
}

// NewHasher returns a Hasher in mode m.
func NewHasher(m Mode) *Hasher { return &Hasher{mode: m} }

// Reset empties the hasher; its mode stays.
func (h *Hasher) Reset() { h.counter, h.n = 0, 0 }

// Write hashes p. It never fails.
func (h *Hasher) Write(p []byte) (int, error) {
	written := len(p)
	for len(p) > 0 {
		if h.n == len(h.buf) {
			h.flush()
		}
		if h.n == 0 && h.counter%16 == 0 {
			// Whole groups straight from p, but never the last byte's.
			for len(p) > group {
				h.addGroup((*[group]byte)(p[:group]))
				p = p[group:]
			}
		}
		k := copy(h.buf[h.n:], p)
		h.n += k
		p = p[k:]
	}
	return written, nil
}

// flush compresses the full buffer, more bytes being on their way: as one
// group where the counter is a multiple of 16 chunks, else chunk by chunk
// up to the next multiple (only a state restored mid-group is off it).
func (h *Hasher) flush() {
	if h.counter%16 == 0 {
		h.addGroup(&h.buf)
		h.n = 0
		return
	}
	k := 0
	for h.counter%16 != 0 && h.n-k > chunk {
		h.addChunk(h.buf[k : k+chunk])
		k += chunk
	}
	h.n = copy(h.buf[:], h.buf[k:h.n])
}

// addChunk compresses one whole chunk, the next, and adds it to the stack.
func (h *Hasher) addChunk(p []byte) {
	n := compressChunk(p, &h.mode.Key, h.counter, h.mode.Flags)
	h.add(chainingValue(&n), 0)
}

// lastChunk adds the whole chunks of p but its last to the stack, one by
// one, and returns the last (a chunk or less).
func (h *Hasher) lastChunk(p []byte) []byte {
	for len(p) > chunk {
		h.addChunk(p[:chunk])
		p = p[chunk:]
	}
	return p
}

// addGroup compresses a whole group of chunks, the next ones, and adds its
// subtree to the stack.
func (h *Hasher) addGroup(g *[group]byte) {
	var cv [8]uint32
	if useKernels() {
		var cvs [2][8][16]uint32
		var ptrs [16]*byte
		var ctr [2][16]uint32
		for i := range 16 {
			ptrs[i] = &g[i*chunk]
			c := h.counter + uint64(i)
			ctr[0][i], ctr[1][i] = uint32(c), uint32(c>>32)
		}
		chunks16(&cvs[0], &ptrs, &h.mode.Key, &ctr, h.mode.Flags)
		parentsTo1(&cvs, &h.mode.Key, h.mode.Flags)
		for w := range cv {
			cv[w] = cvs[0][w][0]
		}
	} else {
		root := compressBuffer(g, group, &h.mode.Key, h.counter, h.mode.Flags)
		cv = chainingValue(&root)
	}
	h.add(cv, 4)
}

// add adds the subtree of 2^k chunks with chaining value cv at the
// counter (a multiple of 2^k): as in binary addition, each set bit from k
// up is a left neighbour to merge with.
func (h *Hasher) add(cv [8]uint32, k int) {
	i := k
	for ; h.counter&(1<<i) != 0; i++ {
		p := parentNode(&h.stack[i], &cv, &h.mode.Key, h.mode.Flags)
		cv = chainingValue(&p)
	}
	h.stack[i] = cv
	h.counter += 1 << k
}

// Sum appends outLen bytes of the output of what was written to dst,
// leaving the state as it was.
func (h *Hasher) Sum(dst []byte, outLen int) []byte {
	return append(dst, output(h.root(), outLen)...)
}

// root is the root node of what was written, not finalized.
func (h *Hasher) root() node {
	counter, stack := h.counter, &h.stack
	buf := h.buf[:h.n]
	var root node
	if counter%16 == 0 {
		// The rest is at most a group: one subtree.
		root = compressBuffer(&h.buf, h.n, &h.mode.Key, counter, h.mode.Flags)
	} else {
		// Off a group's start: its whole chunks one by one on a copy.
		c := *h
		buf = c.lastChunk(buf)
		counter, stack = c.counter, &c.stack
		root = compressChunk(buf, &h.mode.Key, counter, h.mode.Flags)
	}
	for i := range 64 {
		if counter&(1<<i) != 0 {
			cv := chainingValue(&root)
			root = parentNode(&stack[i], &cv, &h.mode.Key, h.mode.Flags)
		}
	}
	return root
}

// State is the hasher as BLAKE3's reference hasher holds it: the chunks
// compressed, the chaining value of each complete subtree they make (one
// per set bit of the count, lowest bit first), and the last chunk, not
// compressed (empty only for an empty input).
func (h *Hasher) State() (counter uint64, subtrees [][8]uint32, last []byte) {
	c := *h
	buf := c.lastChunk(c.buf[:c.n])
	for i := range 64 {
		if c.counter&(1<<i) != 0 {
			subtrees = append(subtrees, c.stack[i])
		}
	}
	return c.counter, subtrees, append([]byte(nil), buf...)
}

// ErrState is a state no hasher can be in.
var ErrState = errors.New("blake3: no hasher is in this state")

// SetState restores a state State gave, in the hasher's mode.
func (h *Hasher) SetState(counter uint64, subtrees [][8]uint32, last []byte) error {
	if len(last) > chunk || counter > 0 && len(last) == 0 {
		return ErrState
	}
	n := Hasher{mode: h.mode, counter: counter}
	for i := range 64 {
		if counter&(1<<i) != 0 {
			if len(subtrees) == 0 {
				return ErrState
			}
			n.stack[i], subtrees = subtrees[0], subtrees[1:]
		}
	}
	if len(subtrees) != 0 {
		return ErrState
	}
	n.n = copy(n.buf[:], last)
	*h = n
	return nil
}
