package hashlanes

import (
	"context"
	"hash"
	"io"
	"os"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"
	"unsafe"

	"github.com/hashlanes/hashlanes/internal/blake3tree"
)

// StreamSum is the outcome of one stream of SumStreams.
type StreamSum struct {
	Sums [][]byte // one digest per algorithm, in the order asked; nil if Err
	Size int64    // bytes read
	Err  error    // from opening or reading the stream
}

// StreamOption configures SumStreams.
type StreamOption func(*streamOptions)

type streamOptions struct {
	jobs      int
	perStream func(i int) []Algorithm
	hashes    func(i int) []hash.Hash
}

// WithStreamAlgorithms makes stream i hash with algs(i) instead of the
// algorithms passed to SumStreams: a list of checksums of several kinds
// verifies in one call.
func WithStreamAlgorithms(algs func(i int) []Algorithm) StreamOption {
	return func(o *streamOptions) { o.perStream = algs }
}

// WithStreamHashes also writes stream i to each of the hashers hashes(i)
// returns, fresh ones, after the algorithms: for functions that are no
// Algorithm (a BLAKE2b of another length, a CRC). Their digests follow
// the algorithms' in StreamSum.Sums, in their order.
func WithStreamHashes(hashes func(i int) []hash.Hash) StreamOption {
	return func(o *streamOptions) { o.hashes = hashes }
}

// WithJobs sets how many streams are open and hashed at once (default
// DefaultJobs()). More jobs fill more lanes; each costs one read buffer.
func WithJobs(n int) StreamOption { return func(o *streamOptions) { o.jobs = max(n, 1) } }

// DefaultJobs is the number of streams SumStreams keeps in flight by
// default: enough ready streams per P to fill the widest kernel (32 lanes)
// while others wait in read calls; fewer leave lanes empty, more only add
// read buffers (docs/figures.md, "Jobs in flight").
func DefaultJobs() int { return 32 * runtime.GOMAXPROCS(0) }

const (
	streamBuffer = 64 << 10 // read size of small and medium streams
	// A stream that has read this much is large: its reads move to a
	// goroutine of their own, ahead of the hashing, so that copying from
	// the page cache and hashing overlap on a second core.
	readAheadAfter = 1 << 20
	aheadBuffer    = 256 << 10
	aheadBuffers   = 4
)

// aheadStreams is how many streams of one call read ahead at once, each
// with aheadBuffers buffers: the read-ahead lets a second core copy while
// one hashes, and two a P are enough for that. Without the bound every
// job could hold a megabyte: hashing /usr/lib and /usr/share (108,000
// files, 4.9 GB) peaked at 108-113 MiB, most of it read-ahead buffers of
// the large files in flight (docs/figures.md, "Memory"). The other large
// streams read in their worker's own buffer, in lanes beside the rest.
func aheadStreams() int { return 2 * runtime.GOMAXPROCS(0) }

// SumStreams hashes n streams, each with every algorithm in algs in one
// pass over its bytes. open(i) returns the i-th stream (closed afterwards if
// it is an io.Closer); an error from open is reported for that stream and
// the others go on. done is called once per stream, in order of i, never
// concurrently, so a caller can print results as they come without
// reordering them. Streams are hashed concurrently in the engine's lanes,
// each read with a fixed-size buffer: memory stays bounded whatever the
// sizes of the streams and however many there are.
//
// If ctx is cancelled, SumStreams stops opening streams, abandons those in
// flight, and returns ctx.Err() once its goroutines are done; done is not
// called for streams that did not finish.
func SumStreams(ctx context.Context, algs []Algorithm, n int, open func(i int) (io.Reader, error), done func(i int, s StreamSum), opts ...StreamOption) error {
	o := streamOptions{jobs: DefaultJobs()}
	for _, opt := range opts {
		opt(&o)
	}
	jobs := min(o.jobs, n)
	if jobs == 0 {
		return ctx.Err()
	}
	ord := newOrderer(n, max(4*jobs, resultWindow(algs, o.perStream != nil || o.hashes != nil)), done)
	algsOf := o.perStream
	if algsOf == nil {
		algsOf = func(int) []Algorithm { return algs }
	}
	ahead := make(chan struct{}, aheadStreams()) // a token a stream reading ahead
	var wg sync.WaitGroup
	for range jobs {
		wg.Go(func() { streamWorker(ctx, algsOf, o.hashes, open, ord, ahead) })
	}
	wg.Wait()
	return ctx.Err()
}

func streamWorker(ctx context.Context, algsOf func(int) []Algorithm, hashes func(int) []hash.Hash, open func(int) (io.Reader, error), ord *orderer, ahead chan struct{}) {
	var hashers [maxAlgorithm]hash.Hash // made on first use, reused
	var hs []hash.Hash
	buf := streamPool.Get().(*[streamBuffer]byte)
	defer streamPool.Put(buf)
	wake := make(chan struct{}, 1) // for blake3Whole
	for {
		i, ok := ord.take()
		if !ok {
			return
		}
		if ctx.Err() != nil {
			ord.stop()
			return
		}
		var s StreamSum
		r, err := open(i)
		if err != nil {
			s.Err = err
		} else {
			hs = hs[:0]
			for _, a := range algsOf(i) {
				a.mustInfo()
				if hashers[a] == nil {
					hashers[a] = New(a)
				}
				h := hashers[a]
				if slices.Contains(hs, h) { // asked twice
					h = New(a)
				}
				h.Reset()
				hs = append(hs, h)
			}
			if hashes != nil {
				hs = append(hs, hashes(i)...)
			}
			whole := false
			var read int64
			if len(hs) == 1 && hs[0] == hashers[BLAKE3] && blake3tree.HaveMany() {
				read, whole, s.Err = sumWholeBLAKE3(r, buf[:], hs[0], wake, &s)
			}
			if !whole && s.Err == nil {
				s.Size, s.Err = hashStream(ctx, hs, r, buf[:], ahead, read)
			}
			if c, ok := r.(io.Closer); ok {
				if err := c.Close(); err != nil && s.Err == nil {
					s.Err = err
				}
			}
			if s.Err == nil && !whole {
				s.Sums = make([][]byte, len(hs))
				for k, h := range hs {
					s.Sums[k] = h.Sum(nil)
				}
			}
		}
		if ctx.Err() != nil {
			ord.stop()
			return
		}
		ord.put(i, s)
	}
}

// sumWholeBLAKE3 reads a stream of BLAKE3 alone whole, if it ends within
// ManyMax, and hashes it into s in lanes with the other workers' short
// streams (blake3many.go). If it does not end, what was read (n bytes)
// has been written to h, to go on as a stream, and whole is false.
func sumWholeBLAKE3(r io.Reader, buf []byte, h hash.Hash, wake chan struct{}, s *StreamSum) (n int64, whole bool, err error) {
	// One byte more than fits tells a stream that goes on.
	k, err := io.ReadFull(r, buf[:min(blake3tree.ManyMax, len(buf)-1)+1])
	switch err {
	case io.EOF, io.ErrUnexpectedEOF: // it ended within: whole
	case nil:
		h.Write(buf[:k])
		return int64(k), false, nil
	default:
		return 0, false, err
	}
	w := wholeStream{msg: buf[:k], wake: wake}
	blake3Whole.sum(&w)
	s.Size, s.Sums = int64(k), [][]byte{append([]byte(nil), w.sum[:]...)}
	return int64(k), true, nil
}

// hashStream writes r to every hasher; small streams are read in the
// worker's own buffer, large ones ahead by a reader goroutine while a
// token of ahead is free. size is what was read of r before.
func hashStream(ctx context.Context, hs []hash.Hash, r io.Reader, buf []byte, ahead chan struct{}, size int64) (int64, error) {
	for {
		if size >= readAheadAfter {
			select {
			case ahead <- struct{}{}:
				n, err := hashAhead(ctx, hs, r)
				<-ahead
				return size + n, err
			default: // enough streams read ahead: go on in buf
			}
		}
		n, err := r.Read(buf)
		for _, h := range hs {
			h.Write(buf[:n])
		}
		size += int64(n)
		if err == io.EOF {
			return size, nil
		}
		if err != nil {
			return size, err
		}
		if ctx.Err() != nil {
			return size, ctx.Err()
		}
	}
}

type aheadChunk struct {
	b   []byte
	err error
}

// The read buffers are pooled: a call of SumStreams would otherwise
// allocate and clear 64 KiB a job.
var (
	streamPool = sync.Pool{New: func() any { return (*[streamBuffer]byte)(staggeredBuffer(streamBuffer)) }}
	aheadPool  = sync.Pool{New: func() any { return (*[aheadBuffer]byte)(staggeredBuffer(aheadBuffer)) }}
)

// Buffers of 32 KiB and more start on a page boundary, so the read buffers
// of the streams sharing a round would sit at equal offsets modulo 4 KiB,
// and a multi-lane kernel reading them block by block would load 16 or 32
// lines of one L1 set (8 ways) at once, and run slower than on lanes a few
// lines apart (docs/figures.md, "Staggered buffers"). Each buffer
// therefore starts staggerLines lines further into its page than
// the one allocated before it, modulo the page's 64 lines; 5 is prime to
// 64, so 64 buffers in a row start on 64 different lines.
const (
	lineBytes    = 64
	pageBytes    = 4096 // the L1 set index's span: 64 sets of 64-byte lines
	pageLines    = pageBytes / lineBytes
	staggerLines = 5
)

var staggerNext atomic.Uint32

// staggeredBuffer returns n bytes starting at the next stagger offset.
func staggeredBuffer(n int) []byte {
	off := int(staggerNext.Add(staggerLines)%pageLines) * lineBytes
	return make([]byte, off+n)[off:][:n:n]
}

// hashAhead reads r in a goroutine, up to aheadBuffers chunks ahead of the
// hashing.
func hashAhead(ctx context.Context, hs []hash.Hash, r io.Reader) (int64, error) {
	free := make(chan *[aheadBuffer]byte, aheadBuffers)
	for range aheadBuffers {
		free <- aheadPool.Get().(*[aheadBuffer]byte)
	}
	full := make(chan aheadChunk, aheadBuffers)
	quit := make(chan struct{})
	go func() {
		defer close(full)
		for {
			var b *[aheadBuffer]byte
			select {
			case b = <-free:
			case <-quit:
				return
			}
			n, err := io.ReadFull(r, b[:])
			if err == io.ErrUnexpectedEOF {
				err = io.EOF
			}
			full <- aheadChunk{b[:n], err}
			if err != nil {
				return
			}
		}
	}()
	var size int64
	var err error
	for c := range full {
		for _, h := range hs {
			h.Write(c.b)
		}
		size += int64(len(c.b))
		free <- (*[aheadBuffer]byte)(c.b[:aheadBuffer])
		if c.err != nil {
			if c.err != io.EOF {
				err = c.err
			}
			break
		}
		if err = ctx.Err(); err != nil {
			close(quit)
			for range full { // the reader stops at its next chunk
			}
			break
		}
	}
	close(free)
	for b := range free {
		aheadPool.Put(b)
	}
	return size, err
}

// resultBudget is about the memory the results waiting for delivery in
// order may take: streams may be taken up to resultWindow beyond the first
// undelivered one. The window is what lets a large stream hash in lanes
// beside others: with room for 1,024 results the workers ran past a large
// file into a thousand small ones, then stopped, and the large file hashed
// alone; a wider window kept it in lanes (docs/figures.md, "The result
// window"), 65,536 results of one digest being about 7 MiB.
const (
	resultBudget = 6 << 20
	maxWindow    = 1 << 16
	// A result of unknown digests (per-stream algorithms, other hashers)
	// is counted as this many bytes.
	unknownResultBytes = 256
)

// resultWindow is how many results fit resultBudget, each with a digest
// of every algorithm in algs, or of unknown size when other is set.
func resultWindow(algs []Algorithm, other bool) int {
	per := int(unsafe.Sizeof(StreamSum{})) + 1 // a slot of the ring and its ready flag
	for _, a := range algs {
		per += int(unsafe.Sizeof([]byte(nil))) + a.Size()
	}
	if other {
		per = max(per, unknownResultBytes)
	}
	return min(maxWindow, resultBudget/per)
}

// orderer hands out stream indices in order and delivers results in order.
// At most window streams may be taken beyond the first undelivered one, so
// results waiting for a slow earlier stream stay bounded.
type orderer struct {
	mu         sync.Mutex
	cond       sync.Cond
	n, window  int
	next, emit int
	ready      []bool
	results    []StreamSum
	emitting   bool
	stopped    bool
	done       func(int, StreamSum)
}

func newOrderer(n, window int, done func(int, StreamSum)) *orderer {
	window = min(window, n) // the ring never needs more slots than streams
	o := &orderer{n: n, window: window, ready: make([]bool, window), results: make([]StreamSum, window), done: done}
	o.cond.L = &o.mu
	return o
}

func (o *orderer) take() (int, bool) {
	o.mu.Lock()
	defer o.mu.Unlock()
	for !o.stopped && o.next < o.n && o.next >= o.emit+o.window {
		o.cond.Wait()
	}
	if o.stopped || o.next >= o.n {
		return 0, false
	}
	i := o.next
	o.next++
	return i, true
}

// stop wakes every worker waiting in take, after a cancellation.
func (o *orderer) stop() {
	o.mu.Lock()
	o.stopped = true
	o.cond.Broadcast()
	o.mu.Unlock()
}

func (o *orderer) put(i int, s StreamSum) {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.results[i%o.window], o.ready[i%o.window] = s, true
	if o.emitting {
		return // the emitting worker will deliver it
	}
	o.emitting = true
	for o.emit < o.n && o.ready[o.emit%o.window] && !o.stopped {
		k := o.emit % o.window
		s := o.results[k]
		o.results[k], o.ready[k] = StreamSum{}, false
		idx := o.emit
		o.emit++
		o.mu.Unlock()
		o.done(idx, s)
		o.mu.Lock()
	}
	o.emitting = false
	o.cond.Broadcast()
}

// SumReaders hashes each reader to its end, concurrently in lanes, and
// returns the digests in order. It stops at the first error.
func SumReaders(a Algorithm, readers ...io.Reader) ([][]byte, error) {
	sums := make([][]byte, len(readers))
	var first error
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	SumStreams(ctx, []Algorithm{a}, len(readers),
		func(i int) (io.Reader, error) { return readerNoClose{readers[i]}, nil },
		func(i int, s StreamSum) {
			if s.Err != nil && first == nil {
				first = s.Err
				cancel()
			}
			if s.Err == nil {
				sums[i] = s.Sums[0]
			}
		})
	if first != nil {
		return nil, first
	}
	return sums, nil
}

// readerNoClose keeps SumStreams from closing a reader it did not open.
type readerNoClose struct{ io.Reader }

// SumFile returns the digest of the named file, read with bounded memory
// (reads run ahead of the hashing on large files). A large file's BLAKE3
// is computed on every core, its chunk tree split among them.
func SumFile(a Algorithm, name string) ([]byte, error) {
	if a == BLAKE3 {
		if sum, ok, err := sumFileTree(name); ok {
			return sum, err
		}
	}
	var sum []byte
	var err error
	SumStreams(context.Background(), []Algorithm{a}, 1,
		func(int) (io.Reader, error) { return os.Open(name) },
		func(_ int, s StreamSum) {
			err = s.Err
			if s.Err == nil {
				sum = s.Sums[0]
			}
		})
	return sum, err
}

// treeMin is the size from which a file's BLAKE3 is computed in leaves
// on every core (internal/blake3tree) rather than as a stream.
const treeMin = 1 << 20

// sumFileTree is SumFile of BLAKE3 through the tree, for a regular file
// of treeMin bytes or more; false for others.
func sumFileTree(name string) ([]byte, bool, error) {
	f, err := os.Open(name)
	if err != nil {
		return nil, true, err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil || !fi.Mode().IsRegular() || fi.Size() < treeMin {
		return nil, false, nil
	}
	sum, err := blake3tree.SumFile(context.Background(), f, fi.Size(), blake3tree.Hash(), 32, runtime.GOMAXPROCS(0))
	return sum, true, err
}
