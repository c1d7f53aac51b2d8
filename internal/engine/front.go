package engine

import (
	"hash"
	"sync/atomic"
	"unsafe"

	"github.com/hashlanes/hashlanes/internal/kernel"
)

// Front is a new stream where the single-stream kernel costs less than
// the library's hasher (kernel.Single.Short: the SHA-NI kernels, MD5's,
// SHA-512's own):
// the state, the length and one block inline, in one allocation of about
// the library's hasher's size, hashed by the kernel itself. A Hasher would be
// two allocations, itself and the library's hasher, and a fresh process
// pays for every page it first touches (docs/engine.md, "A new stream's
// front"). A write that could share lanes moves the stream to a Hasher
// (attach), which the Front then forwards every call to.
type Front[S any, B block] struct {
	srv *Server[S]
	// eng is the stream once in the engine. Set once, atomically: a
	// stream misused from two goroutines may garble itself in the Front,
	// as the library's hasher would, but its move to the engine must be
	// one move, whose Hasher's guard then catches the misuse (a panic),
	// as it does for a stream that started there.
	eng atomic.Pointer[Hasher[S]]
	st  S
	// probed: the stream has looked for company since it was made or
	// Reset (see Hasher.probed). Beside the state, in the room its
	// alignment leaves: SHA-1's Front fits 112 bytes, as its library
	// hasher does.
	probed bool
	n      uint64 // bytes written; the last n % block size wait in buf
	buf    B
}

// block is the block a Front holds, inline: an array, so that the Front
// is one allocation of its algorithm's size. Go slices an array type
// parameter only where every array of its set has one length;
// blockBytes does it for both.
type block interface{ [64]byte | [128]byte }

// blockBytes returns b as a slice.
func blockBytes[B block](b *B) []byte {
	return unsafe.Slice((*byte)(unsafe.Pointer(b)), unsafe.Sizeof(*b))
}

// servesFront reports whether s's new streams start in a Front.
func (s *Server[S]) servesFront() bool {
	k := &s.kern.Single
	return k.Short && !k.Reference && (s.spec.BlockSize == 64 || s.spec.BlockSize == 128)
}

// NewStream returns a new stream in its initial state: a Front where the
// server serves one, else a Hasher. Besides hash.Hash, both implement
// encoding.BinaryMarshaler, encoding.BinaryAppender,
// encoding.BinaryUnmarshaler and hash.Cloner.
func (s *Server[S]) NewStream() hash.Hash {
	switch {
	case !s.front:
		return s.NewHash()
	case s.spec.BlockSize == 128:
		return &Front[S, [128]byte]{srv: s, st: s.spec.Init}
	}
	return &Front[S, [64]byte]{srv: s, st: s.spec.Init}
}

// Size returns the digest length in bytes.
func (f *Front[S, B]) Size() int { return f.srv.spec.Size }

// BlockSize returns the algorithm's block size in bytes.
func (f *Front[S, B]) BlockSize() int { return int(unsafe.Sizeof(f.buf)) }

// Reset returns the stream to its initial state; one in the engine stays
// there (its Hasher takes a reused stream's short messages on the kernel
// as the Front does).
func (f *Front[S, B]) Reset() {
	if h := f.eng.Load(); h != nil {
		h.Reset()
		return
	}
	f.st, f.n, f.probed = f.srv.spec.Init, 0, false
}

// Write adds p to the stream. A write too short for the lanes, or one that
// would run alone anyway (writesAlone, the Hasher's test too), goes
// straight to the kernel; any other moves the stream to the engine.
func (f *Front[S, B]) Write(p []byte) (int, error) {
	h := f.eng.Load()
	if h == nil {
		if len(p) < minLaneBlocks*len(blockBytes(&f.buf)) {
			f.absorb(p)
			return len(p), nil
		}
		if f.srv.writesAlone(len(p), f.probed) {
			f.probed = true // the test was the stream's probe
			f.absorb(p)
			return len(p), nil
		}
		h = f.attach()
	}
	return h.Write(p)
}

// absorb hashes p's whole blocks, after completing the buffered one, on
// the single-stream kernel, and buffers the rest. p is shorter than
// awaitMinBytes (see alone), so one call stays short.
func (f *Front[S, B]) absorb(p []byte) {
	buf := blockBytes(&f.buf)
	k := int(f.n % uint64(len(buf)))
	f.n += uint64(len(p))
	kernelBlocks(f.srv.kern.Single.Fn, &f.st, buf, k, p)
}

// attach moves the stream to a Hasher in the engine, with its state, and
// returns it; of two goroutines attaching at once, both get the one that
// was set first.
func (f *Front[S, B]) attach() *Hasher[S] {
	h := f.srv.NewHash()
	h.adopt(&f.st, f.n, f.tail(), f.probed)
	if !f.eng.CompareAndSwap(nil, h) {
		return f.eng.Load()
	}
	return h
}

// Sum appends the digest of what was written so far to b; the stream goes
// on unchanged. The padding takes the stream's own block and the kernel
// runs on its own state, both put back after: a buffer or a state on the
// stack, handed to the kernel through a function value, would be moved to
// the heap at every Sum.
func (f *Front[S, B]) Sum(b []byte) []byte {
	if h := f.eng.Load(); h != nil {
		return h.Sum(b)
	}
	sp, fn := f.srv.spec, f.srv.kern.Single.Fn
	st := f.st
	buf := blockBytes(&f.buf)
	k := int(f.n % uint64(len(buf)))
	kernel.EndMessage(buf, k)
	if k+1 > len(buf)-sp.LenBytes {
		// No room for the length: a block more, over the tail, which is
		// put back after (what lies past it is never read as data).
		tail := f.buf
		fn(&f.st, buf)
		clear(buf)
		defer func() { f.buf = tail }()
	}
	kernel.PutLength(buf, f.n, sp.LenBytes, sp.BigEndian)
	fn(&f.st, buf)
	b = sp.AppendDigest(b, &f.st)
	f.st = st
	return b
}

// AppendBinary appends the stream's state in the standard library's format.
func (f *Front[S, B]) AppendBinary(b []byte) ([]byte, error) {
	if h := f.eng.Load(); h != nil {
		return h.AppendBinary(b)
	}
	return appendMarshaled(f.srv.spec, b, &f.st, f.tail(), f.n), nil
}

// MarshalBinary returns the stream's state in the standard library's format.
func (f *Front[S, B]) MarshalBinary() ([]byte, error) {
	return f.AppendBinary(make([]byte, 0, marshaledSize(f.srv.spec)))
}

// UnmarshalBinary restores a state saved by MarshalBinary or by the
// standard library's hash of the same algorithm. On error the stream is
// unchanged.
func (f *Front[S, B]) UnmarshalBinary(b []byte) error {
	if h := f.eng.Load(); h != nil {
		return h.UnmarshalBinary(b)
	}
	if err := checkMarshaled(f.srv.spec, b); err != nil {
		return err
	}
	f.n = readMarshaled(f.srv.spec, b, &f.st, blockBytes(&f.buf))
	return nil
}

// Clone returns an independent copy of the stream.
func (f *Front[S, B]) Clone() (hash.Cloner, error) {
	if h := f.eng.Load(); h != nil {
		return h.Clone()
	}
	return &Front[S, B]{srv: f.srv, st: f.st, probed: f.probed, n: f.n, buf: f.buf}, nil
}

// tail is the bytes written after the last whole block.
func (f *Front[S, B]) tail() []byte {
	buf := blockBytes(&f.buf)
	return buf[:f.n%uint64(len(buf))]
}
