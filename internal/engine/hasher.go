package engine

import (
	"encoding"
	"encoding/binary"
	"errors"
	"hash"
	"sync/atomic"

	"github.com/hashlanes/hashlanes/internal/kernel"
)

// Hasher is one stream: a hash.Hash whose whole blocks go through its
// Server's lanes. It is not safe for concurrent use (no hash.Hash is); using
// one Hasher from two goroutines at once panics rather than corrupting any
// other stream.
type Hasher[S any] struct {
	srv *Server[S]
	// e is the stream's state in the engine, made when the stream first
	// leaves the library's hasher: a stream that never does (short
	// messages, a lone stream) allocates what the standard library's
	// hasher allocates and a few words more: made in every hasher, the
	// engine's state cost hashers made per message their speed in memory
	// traffic alone (docs/engine.md, "Writes alone").
	e *stream[S]

	// While inLib, the stream is in lib, the standard library's hasher
	// (made on first use), not in e: a write too short for the lanes
	// costs there what the standard library costs, where the engine adds
	// its bookkeeping to each block. A write that could share lanes moves
	// the stream to the engine (leaveLib), through the marshalled state
	// the two share; so does a reused stream's message where the engine's
	// short path costs less (placeMessage). The flag is inEngine, inLib's
	// opposite, so that a new hasher starts in lib as made: setting an
	// atomic is a locked instruction, a measurable share of a hasher made
	// per message.
	lib      hash.Hash
	inEngine atomic.Bool // read before the guard (see Write)
	busy     atomic.Bool
	// probed: the stream has looked for company since it was made or
	// Reset (see Server.blocks). Atomic, as a lone write's test reads it
	// outside the guard while a write inside may set it (misuse from two
	// goroutines, which the guard must catch rather than the race
	// detector); stored only when it changes (setProbed), as a store is a
	// locked instruction. A Front's stays a plain bool: nothing guarded
	// touches it.
	probed atomic.Bool
	// laneMin is the shortest write that may go to the lanes
	// (minLaneBlocks blocks): shorter ones stay in lib. A field, so that
	// the library's path reads nothing of the server.
	laneMin uint16 // with the flags, the Hasher fits 48 bytes
	// fresh: the stream was Reset in the library's hasher, on a server
	// whose short path costs less, and nothing has been written since: its
	// first write moves it to the engine (placeMessage). Written only
	// when it changes, so that misuse of a hasher never reset races on
	// it only as readers do.
	fresh bool
}

// stream is a Hasher's state in the engine.
type stream[S any] struct {
	// The pointers first, so that the collector scans a short prefix.
	req   request[S]
	state S
	n     uint64 // bytes written
	nbuf  int
	// Sum's copy of the state, here because the kernel is called through
	// a function value and would make a stack copy escape.
	sumState S
	// buf holds the partial block, buf[:nbuf]; Sum pads the message
	// after it in place (what lies past nbuf is never read as data).
	buf [2 * maxBlockSize]byte
}

// NewHash returns a new stream in its initial state.
func (s *Server[S]) NewHash() *Hasher[S] {
	h := &Hasher[S]{srv: s, laneMin: minLaneBlocks * uint16(s.spec.BlockSize)}
	if !s.startsInLib() {
		h.engine()
		h.inEngine.Store(true)
	}
	return h
}

// inLib reports whether the stream is in the library's hasher.
func (h *Hasher[S]) inLib() bool { return !h.inEngine.Load() }

// engine returns the stream's state in the engine, made in its initial
// state on first use.
func (h *Hasher[S]) engine() *stream[S] {
	if h.e == nil {
		e := &stream[S]{state: h.srv.spec.Init}
		e.req.state = &e.state
		h.e = e
	}
	return h.e
}

// startsInLib reports whether a new stream starts in the standard
// library's hasher (see Hasher.inLib): not when the tier was forced down
// to the pure-Go reference, which the engine's path then tests.
func (s *Server[S]) startsInLib() bool { return s.spec.Lib != nil && !s.kern.Single.Reference }

// shortInEngine reports whether a reused stream's short messages run on
// the engine's single-stream kernel (see Hasher.writeShort) rather than in
// the library's hasher: where that kernel says they cost less there
// (kernel.Single.Short; docs/engine.md, "Short messages of a reused
// stream").
func (s *Server[S]) shortInEngine() bool { return s.kern.Single.Short }

// libHash returns the stream's library hasher, made on first use.
func (h *Hasher[S]) libHash() hash.Hash {
	if h.lib == nil {
		h.lib = h.srv.spec.Lib()
	}
	return h.lib
}

// runsAlone reports whether a write of n bytes runs by itself, in the
// library's hasher or on the engine's short path, wherever the stream
// is: one too short for the lanes, or one that would run alone on the
// single-stream kernel anyway (the engine's own test, which also counts
// as the stream's probe for company).
func (h *Hasher[S]) runsAlone(n int) bool {
	if n < int(h.laneMin) {
		return true
	}
	if !h.srv.writesAlone(n, h.probed.Load()) {
		return false
	}
	setProbed(&h.probed, true)
	return true
}

// writesAlone reports whether a stream's write of n bytes, at least the
// lanes' least, would run alone on the single-stream kernel anyway (the
// engine's own test, alone); probed is whether the stream has looked for
// company in this message. Where the write runs alone, the caller marks
// the stream probed: the test counts as its probe. A Hasher and a Front
// ask it alike.
func (s *Server[S]) writesAlone(n int, probed bool) bool {
	return s.lanes != 0 && !s.closed.Load() && s.alone(n, !probed)
}

// setProbed sets a stream's probed flag to v, storing only if it changes:
// a store is a locked instruction, and a reused stream resets it message
// after message.
func setProbed(probed *atomic.Bool, v bool) {
	if probed.Load() != v {
		probed.Store(v)
	}
}

// leaveLib moves the stream from the library's hasher to the engine's
// state, through the marshalled form they share.
func (h *Hasher[S]) leaveLib() {
	h.inEngine.Store(true)
	h.engine()
	if h.lib == nil {
		return // nothing written yet: the engine's state is the initial one
	}
	var st [8 + 8*8 + 2*maxBlockSize + 8]byte
	b, err := h.lib.(encoding.BinaryAppender).AppendBinary(st[:0])
	if err == nil {
		err = h.unmarshal(b)
	}
	if err != nil {
		panic(err) // the library's own state, in the format it documents
	}
}

func (h *Hasher[S]) enter() {
	if !h.busy.CompareAndSwap(false, true) {
		panic("hashlanes: concurrent use of one hash.Hash by several goroutines")
	}
}

func (h *Hasher[S]) leave() { h.busy.Store(false) }

// Size returns the digest length in bytes.
func (h *Hasher[S]) Size() int { return h.srv.spec.Size }

// BlockSize returns the algorithm's block size in bytes.
func (h *Hasher[S]) BlockSize() int { return h.srv.spec.BlockSize }

// Reset returns the stream to its initial state.
//
// Reset, Write and Sum each take the library's path first, in a body
// without the guard's deferred release: a short message costs what the
// library's hasher costs, plus a call (BenchmarkReused).
//
// A stream Reset after a message is one reused message after message: on
// a server whose short path costs less (shortInEngine) its next message
// runs in the engine (see placeMessage).
func (h *Hasher[S]) Reset() {
	if h.inLib() { // nothing of the stream is in the engine
		if h.lib != nil {
			h.lib.Reset()
			h.setFresh(h.srv.shortInEngine())
		}
		return
	}
	// Like a short write, a reset touches nothing but the stream's own
	// state: no guard.
	h.resetEngine()
	if !h.srv.shortInEngine() && h.srv.startsInLib() {
		h.inEngine.Store(false)
		if h.lib != nil {
			h.lib.Reset()
		}
	}
}

// setFresh sets fresh, writing it only if it changes (see fresh).
func (h *Hasher[S]) setFresh(f bool) {
	if h.fresh != f {
		h.fresh = f
	}
}

// resetEngine returns the engine's state to the initial one.
func (h *Hasher[S]) resetEngine() {
	setProbed(&h.probed, false) // a new message may have new company
	e := h.e
	e.state, e.n, e.nbuf = h.srv.spec.Init, 0, 0
}

// Write adds p to the stream. It never fails. Whole blocks are hashed from
// p directly, in lanes with other streams when they are ready; no reference
// to p is kept once Write returns.
func (h *Hasher[S]) Write(p []byte) (int, error) {
	if h.fresh {
		h.fresh = false
		if h.inLib() {
			h.placeMessage()
		}
	}
	if len(p) < int(h.laneMin) {
		// Too short for the lanes, the write touches the stream's own
		// state alone, in the library's hasher or on the single-stream
		// kernel: misuse from two goroutines can garble this stream, as
		// the library's hasher would, but no other, so the guard of the
		// engine's path is not needed (it costs two locked
		// instructions a call).
		if !h.inLib() {
			h.writeShort(p)
			return len(p), nil
		}
		if h.lib != nil {
			return h.lib.Write(p)
		}
	}
	return h.write(p)
}

// placeMessage moves a reused stream's message, at its first write, from
// the library's hasher to the engine's short path, which costs less there
// where the server allows it (shortInEngine): its short writes go straight
// to the kernel, and a long write that runs alone does too (see write),
// where the library's hasher would pay the same blocks and a dearer Sum.
// A stream made per message stays in the library's hasher: its engine
// state would be one more allocation a message.
func (h *Hasher[S]) placeMessage() {
	h.engine()
	h.resetEngine()
	h.inEngine.Store(true)
}

// writeShort adds p, shorter than laneMin or running alone (see write), to
// a stream in the engine: whole blocks straight on the single-stream
// kernel, as the library's hasher would hash them, without the engine's
// counters.
func (h *Hasher[S]) writeShort(p []byte) {
	e := h.e
	e.n += uint64(len(p))
	e.nbuf = kernelBlocks(h.srv.kern.Single.Fn, &e.state, e.buf[:h.srv.spec.BlockSize], e.nbuf, p)
}

// kernelBlocks adds p to a stream whose state is st and whose last nbuf
// bytes wait in block (a block long), on the single-stream kernel fn: it
// completes the waiting block, hashes p's whole blocks and keeps the rest
// in block, and returns how many bytes wait there now. A Hasher's short
// writes and a Front's writes both run it.
func kernelBlocks[S any](fn func(*S, []byte), st *S, block []byte, nbuf int, p []byte) int {
	bs := len(block)
	if nbuf > 0 {
		k := copy(block[nbuf:], p)
		if nbuf += k; nbuf < bs {
			return nbuf
		}
		p = p[k:]
		fn(st, block)
	}
	if whole := len(p) / bs * bs; whole > 0 {
		fn(st, p[:whole])
		p = p[whole:]
	}
	return copy(block, p)
}

// absorb adds p to the engine's state through the engine's path: it
// completes the buffered block (single, with its counters), sends p's
// whole blocks to the lanes' request (blocks) and buffers the rest.
func (h *Hasher[S]) absorb(p []byte) {
	e, bs := h.e, h.srv.spec.BlockSize
	e.n += uint64(len(p))
	if e.nbuf > 0 {
		k := copy(e.buf[e.nbuf:bs], p)
		e.nbuf += k
		p = p[k:]
		if e.nbuf < bs {
			return
		}
		h.srv.single(&e.state, e.buf[:bs], false)
		e.nbuf = 0
	}
	if whole := len(p) / bs * bs; whole > 0 {
		h.srv.blocks(&e.req, p[:whole], &h.probed)
		p = p[whole:]
	}
	e.nbuf = copy(e.buf[:], p)
}

func (h *Hasher[S]) write(p []byte) (int, error) {
	if h.inLib() {
		if h.runsAlone(len(p)) {
			return h.libHash().Write(p) // as in Write
		}
	} else if h.srv.shortInEngine() && h.runsAlone(len(p)) {
		// Alone on the kernel the library's hasher would run, without
		// the guard and the counters, as a short write (see placeMessage).
		h.writeShort(p)
		return len(p), nil
	}
	h.enter()
	defer h.leave()
	if h.inLib() {
		h.leaveLib()
	}
	h.absorb(p)
	return len(p), nil
}

// Sum appends the digest of what was written so far to b; the stream goes
// on unchanged.
//
// Like a short write, it touches nothing but the stream's own state, so
// it needs no guard.
func (h *Hasher[S]) Sum(b []byte) []byte {
	if h.inLib() {
		return h.libHash().Sum(b)
	}
	sp, e := h.srv.spec, h.e
	e.sumState = e.state
	h.srv.kern.Single.Fn(&e.sumState, padAfter(sp, e.buf[:], e.nbuf, e.n))
	return sp.AppendDigest(b, &e.sumState)
}

// AppendBinary appends the stream's state in the standard library's format,
// so it can be restored by the standard library's hash and vice versa.
func (h *Hasher[S]) AppendBinary(b []byte) ([]byte, error) {
	h.enter()
	defer h.leave()
	if h.inLib() {
		return h.libHash().(encoding.BinaryAppender).AppendBinary(b)
	}
	e := h.e
	return appendMarshaled(h.srv.spec, b, &e.state, e.buf[:e.nbuf], e.n), nil
}

// MarshalBinary returns the stream's state in the standard library's format.
func (h *Hasher[S]) MarshalBinary() ([]byte, error) {
	return h.AppendBinary(make([]byte, 0, marshaledSize(h.srv.spec)))
}

// UnmarshalBinary restores a state saved by MarshalBinary or by the
// standard library's hash of the same algorithm. On error the stream is
// unchanged.
func (h *Hasher[S]) UnmarshalBinary(b []byte) error {
	h.enter()
	defer h.leave()
	if err := h.unmarshal(b); err != nil {
		return err
	}
	h.inEngine.Store(true)
	h.setFresh(false) // the message goes on where the state was saved
	return nil
}

// unmarshal reads a marshalled state into the engine's; on error the
// stream is unchanged.
func (h *Hasher[S]) unmarshal(b []byte) error {
	if err := checkMarshaled(h.srv.spec, b); err != nil {
		return err
	}
	e := h.engine()
	e.n = readMarshaled(h.srv.spec, b, &e.state, e.buf[:])
	e.nbuf = int(e.n % uint64(h.srv.spec.BlockSize))
	return nil
}

// adopt puts the stream in the engine with the state st after n bytes, of
// which tail, the last ones, are not hashed yet, and probed as given: a
// Front's stream moving to the lanes.
func (h *Hasher[S]) adopt(st *S, n uint64, tail []byte, probed bool) {
	e := h.engine()
	e.state, e.n, e.nbuf = *st, n, copy(e.buf[:], tail)
	h.inEngine.Store(true)
	setProbed(&h.probed, probed)
}

// appendMarshaled appends a stream's state in the standard library's
// format: the magic, the chaining value, the partial block tail padded
// with zeros to a block, and the length n.
func appendMarshaled[S any](sp *kernel.Spec[S], b []byte, st *S, tail []byte, n uint64) []byte {
	b = append(b, sp.Magic...)
	b = sp.AppendState(b, st)
	b = append(b, tail...)
	b = append(b, make([]byte, sp.BlockSize-len(tail))...)
	return binary.BigEndian.AppendUint64(b, n)
}

// checkMarshaled reports what is wrong with b as a marshalled state of sp.
func checkMarshaled[S any](sp *kernel.Spec[S], b []byte) error {
	if len(b) < len(sp.Magic) || string(b[:len(sp.Magic)]) != sp.Magic {
		return errors.New("hashlanes: " + sp.Name + ": " + kernel.ErrStateID.Error())
	}
	if len(b) != marshaledSize(sp) {
		return errors.New("hashlanes: " + sp.Name + ": " + kernel.ErrStateSize.Error())
	}
	return nil
}

// readMarshaled reads a state marshalled by appendMarshaled (or the
// standard library), which checkMarshaled found sound, into st and buf (a
// block long), and returns its length.
func readMarshaled[S any](sp *kernel.Spec[S], b []byte, st *S, buf []byte) uint64 {
	b = sp.ReadState(b[len(sp.Magic):], st)
	b = b[copy(buf[:sp.BlockSize], b):]
	return binary.BigEndian.Uint64(b)
}

// Clone returns an independent copy of the stream.
func (h *Hasher[S]) Clone() (hash.Cloner, error) {
	h.enter()
	defer h.leave()
	if h.inLib() {
		h.leaveLib() // the copy shares no library hasher with h
	}
	c := h.srv.NewHash()
	c.inEngine.Store(true)
	e, ce := h.e, c.engine()
	ce.state, ce.n, ce.nbuf, ce.buf = e.state, e.n, e.nbuf, e.buf
	return c, nil
}
