package blake3tree

// ManyMax is the longest message SumMany shares lanes with others: past
// it, Sum's leaves of a quarter MiB fill the kernels by themselves.
const ManyMax = 64 * chunk

// HaveMany reports whether SumMany runs on this CPU's kernels.
func HaveMany() bool { return useKernels() }

// zeroChunk fills the lanes of a kernel call that no chunk takes.
var zeroChunk [chunk]byte

// SumMany appends to dst the outLen-byte BLAKE3 output of every message in
// mode m, in order. Messages up to ManyMax share kernel calls, a lane
// having a chunk pointer and a counter of its own: the whole chunks that
// are not their message's last go through compressChunks16 sixteen at a
// time, whichever messages they belong to, and then the last chunks
// (short, or the root of a one-chunk message) through compressChunksVar16,
// each lane up to its own last block. So four messages of 4 KiB fill one
// call that compressing each alone would leave three quarters idle, and
// sixteen messages of 1 KiB, whose blocks one after another are a chain of
// 16 compressions each, run side by side. The parents of each message
// follow, message by message. Longer messages are hashed as Sum hashes
// them. Call it only where HaveMany.
func SumMany(dst []byte, m Mode, msgs [][]byte, outLen int) []byte {
	if len(msgs) == 1 {
		// Alone, a message's chunks leave most lanes idle: Sum's calls
		// and one chunk's rows move more (docs/figures.md, "Figures behind the code").
		if m == Hash() && outLen == 32 {
			return Sum256(dst, msgs[0])
		}
		return append(dst, Sum(m, msgs[0], outLen)...)
	}
	full := 0 // whole chunks that are not their message's last
	for _, msg := range msgs {
		if len(msg) <= ManyMax {
			full += int(chunks(int64(len(msg)))) - 1
		}
	}
	scratch := make([][8]uint32, full+len(msgs))
	cvs, lastCVs := scratch[:full], scratch[full:]
	var (
		ptrs  [16]*byte
		ctr   [2][16]uint32
		out   [8][16]uint32
		slots [16]*[8]uint32 // where each lane's chaining value goes
		lane  int
		next  int // cvs' next chunk
	)
	flush := func() {
		for l := lane; l < 16; l++ {
			ptrs[l], ctr[0][l], ctr[1][l] = &zeroChunk[0], 0, 0
		}
		chunks16(&out, &ptrs, &m.Key, &ctr, m.Flags)
		scatter(&out, slots[:lane])
		lane = 0
	}
	for _, msg := range msgs {
		if len(msg) > ManyMax {
			continue
		}
		for j := range int(chunks(int64(len(msg)))) - 1 {
			ptrs[lane], slots[lane] = &msg[j*chunk], &cvs[next]
			ctr[0][lane], ctr[1][lane] = uint32(j), 0
			lane++
			next++
			if lane == 16 {
				flush()
			}
		}
	}
	if lane > 0 {
		flush()
	}

	// The last chunks, copied where short into buffers of a chunk (the
	// kernel reads whole blocks, zeros after the end).
	var (
		pad    [16][chunk]byte
		ends   [3][16]uint32
		blocks int // the most blocks of any lane
	)
	flushLast := func() {
		for l := lane; l < 16; l++ {
			ptrs[l], ctr[0][l], ctr[1][l] = &pad[l][0], 0, 0
			ends[0][l], ends[1][l], ends[2][l] = 0, 0, 0
		}
		chunksVar16(&out, &ptrs, &m.Key, &ctr, &ends, blocks, m.Flags)
		scatter(&out, slots[:lane])
		lane, blocks = 0, 0
	}
	for i, msg := range msgs {
		if len(msg) > ManyMax {
			continue
		}
		n := int(chunks(int64(len(msg))))
		if n == 1 && outLen != 32 {
			continue // a root whose output is more than its chaining value's words
		}
		var nb int
		ptrs[lane], nb = lastChunkLane(&ctr, &ends, lane, msg[(n-1)*chunk:], &pad[lane], uint64(n-1))
		if n == 1 {
			ends[2][lane] |= flagRoot
		}
		slots[lane] = &lastCVs[i]
		blocks = max(blocks, nb)
		lane++
		if lane == 16 {
			flushLast()
		}
	}
	if lane > 0 {
		flushLast()
	}

	// Every message's chunk chaining values in order, then its parents'.
	nNodes, nTasks := 0, 0
	for _, msg := range msgs {
		if n := int(chunks(int64(len(msg)))); len(msg) <= ManyMax && n > 1 {
			nNodes, nTasks = nNodes+2*n-1, nTasks+n-1
		}
	}
	b := parentBuilder{nodes: make([][8]uint32, 0, nNodes), tasks: make([]parentTask, 0, nTasks)}
	rootOf := make([]int, len(msgs)) // the message's root task
	first := 0
	for i, msg := range msgs {
		n := int(chunks(int64(len(msg))))
		if len(msg) > ManyMax || n == 1 {
			continue
		}
		b.base = len(b.nodes)
		b.nodes = append(b.nodes, cvs[first:first+n-1]...)
		b.nodes = append(b.nodes, lastCVs[i])
		first += n - 1
		b.add(0, n)
		rootOf[i] = len(b.tasks) - 1
		b.tasks[rootOf[i]].root = true
	}
	nodes, tasks := b.nodes, b.tasks
	m.compressTasks(nodes, tasks, outLen)

	for i, msg := range msgs {
		if len(msg) > ManyMax {
			dst = append(dst, Sum(m, msg, outLen)...)
			continue
		}
		n := int(chunks(int64(len(msg))))
		switch {
		case n == 1 && outLen == 32:
			// A root chunk: its last block's output is the hash.
			dst = appendWords(dst, &lastCVs[i])
		case n == 1:
			dst = append(dst, output(compressChunk(msg, &m.Key, 0, m.Flags), outLen)...)
		case outLen == 32:
			dst = appendWords(dst, &nodes[tasks[rootOf[i]].out])
		default:
			t := tasks[rootOf[i]]
			dst = append(dst, output(parentNode(&nodes[t.l], &nodes[t.r], &m.Key, m.Flags), outLen)...)
		}
	}
	return dst
}

// parentTask is a parent node to compress: its children's chaining values
// at nodes[l] and nodes[r], its own to go to nodes[out]; depth is its
// height over the chunks. A message's root (its last task) is compressed
// with ROOT, its output's first words going to nodes[out].
type parentTask struct {
	l, r, out int
	depth     int
	root      bool
}

// parentBuilder lays out the parents of messages' chunks: their tasks,
// children before parents, each message's root last, and room in nodes
// for their chaining values.
type parentBuilder struct {
	nodes [][8]uint32
	tasks []parentTask
	base  int // the message's first chunk in nodes
}

// add adds the parents of the n chunks from lo on of the message at base
// (one chunk has none) and returns the node of their subtree's root and
// its height: the left subtree the largest power of two below n, as
// BLAKE3's tree is.
func (b *parentBuilder) add(lo, n int) (idx, depth int) {
	if n == 1 {
		return b.base + lo, 0
	}
	left := int(leftChunks(uint64(n)))
	l, ld := b.add(lo, left)
	r, rd := b.add(lo+left, n-left)
	b.nodes = append(b.nodes, [8]uint32{})
	t := parentTask{l: l, r: r, out: len(b.nodes) - 1, depth: max(ld, rd) + 1}
	b.tasks = append(b.tasks, t)
	return t.out, t.depth
}

// compressTasks compresses the parents of tasks, height by height, 16 at
// a time in compressParents16 whichever messages they belong to; the
// roots last, with ROOT, where outLen is 32 (longer outputs are made from
// the root node itself, by output).
func (m *Mode) compressTasks(nodes [][8]uint32, tasks []parentTask, outLen int) {
	var (
		in    [2][8][16]uint32
		out   [8][16]uint32
		batch [16]int // the tasks in the call
		slots [16]*[8]uint32
		k     int
	)
	flush := func(flags uint32) {
		for p := range k {
			t := &tasks[batch[p]]
			for w := range 8 {
				in[(2*p)/16][w][(2*p)%16] = nodes[t.l][w]
				in[(2*p+1)/16][w][(2*p+1)%16] = nodes[t.r][w]
			}
			slots[p] = &nodes[t.out]
		}
		parents16(&out, &in, &m.Key, flags)
		scatter(&out, slots[:k])
		k = 0
	}
	maxDepth := 0
	for _, t := range tasks {
		maxDepth = max(maxDepth, t.depth)
	}
	for d := 1; d <= maxDepth; d++ {
		for i, t := range tasks {
			if t.depth == d && !t.root {
				batch[k] = i
				if k++; k == 16 {
					flush(m.Flags)
				}
			}
		}
		if k > 0 {
			flush(m.Flags)
		}
	}
	if outLen != 32 {
		return
	}
	for i, t := range tasks {
		if t.root {
			batch[k] = i
			if k++; k == 16 {
				flush(m.Flags | flagRoot)
			}
		}
	}
	if k > 0 {
		flush(m.Flags | flagRoot)
	}
}

// scatter stores lane l's chaining value of out, a kernel call's
// word-major output, at slots[l].
func scatter(out *[8][16]uint32, slots []*[8]uint32) {
	for l, cv := range slots {
		for w := range cv {
			cv[w] = out[w][l]
		}
	}
}
