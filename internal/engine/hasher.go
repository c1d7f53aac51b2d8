package engine

import (
	"encoding/binary"
	"errors"
	"hash"
	"sync/atomic"
)

// Hasher is one stream: a hash.Hash whose whole blocks go through its
// Server's lanes. It is not safe for concurrent use (no hash.Hash is); using
// one Hasher from two goroutines at once panics rather than corrupting any
// other stream.
type Hasher[S any] struct {
	// The pointers first, so that the collector scans a short prefix.
	srv   *Server[S]
	req   request[S]
	state S
	n     uint64 // bytes written
	nbuf  int
	busy  atomic.Bool

	// Sum's copy of the state, here because the kernel is called through
	// a function value and would make a stack copy escape.
	sumState S
	// buf holds the partial block, buf[:nbuf]; Sum pads the message
	// after it in place (what lies past nbuf is never read as data).
	buf [2 * maxBlockSize]byte
}

// NewHash returns a new stream in its initial state.
func (s *Server[S]) NewHash() *Hasher[S] {
	h := &Hasher[S]{srv: s}
	h.state = s.spec.Init
	h.req.state = &h.state
	return h
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
func (h *Hasher[S]) Reset() {
	h.enter()
	defer h.leave()
	h.state, h.n, h.nbuf = h.srv.spec.Init, 0, 0
	h.req.probed = false // a new message may have new company
}

// Write adds p to the stream. It never fails. Whole blocks are hashed from
// p directly, in lanes with other streams when they are ready; no reference
// to p is kept once Write returns.
func (h *Hasher[S]) Write(p []byte) (int, error) {
	h.enter()
	defer h.leave()
	n := len(p)
	h.n += uint64(n)
	bs := h.srv.spec.BlockSize
	if h.nbuf > 0 {
		k := copy(h.buf[h.nbuf:bs], p)
		h.nbuf += k
		p = p[k:]
		if h.nbuf < bs {
			return n, nil
		}
		h.srv.single(&h.state, h.buf[:bs], false)
		h.nbuf = 0
	}
	if whole := len(p) / bs * bs; whole > 0 {
		h.srv.blocks(&h.req, p[:whole])
		p = p[whole:]
	}
	h.nbuf = copy(h.buf[:], p)
	return n, nil
}

// Sum appends the digest of what was written so far to b; the stream goes
// on unchanged.
func (h *Hasher[S]) Sum(b []byte) []byte {
	h.enter()
	defer h.leave()
	sp := h.srv.spec
	h.sumState = h.state
	h.srv.kern.Single.Fn(&h.sumState, padAfter(sp, h.buf[:], h.nbuf, h.n))
	return sp.AppendDigest(b, &h.sumState)
}

// AppendBinary appends the stream's state in the standard library's format,
// so it can be restored by the standard library's hash and vice versa.
func (h *Hasher[S]) AppendBinary(b []byte) ([]byte, error) {
	h.enter()
	defer h.leave()
	sp := h.srv.spec
	b = append(b, sp.Magic...)
	b = sp.AppendState(b, &h.state)
	b = append(b, h.buf[:h.nbuf]...)
	b = append(b, make([]byte, sp.BlockSize-h.nbuf)...)
	return binary.BigEndian.AppendUint64(b, h.n), nil
}

// MarshalBinary returns the stream's state in the standard library's format.
func (h *Hasher[S]) MarshalBinary() ([]byte, error) {
	return h.AppendBinary(make([]byte, 0, marshaledSize(h.srv.spec)))
}

// UnmarshalBinary restores a state saved by MarshalBinary or by the
// standard library's hash of the same algorithm. On error the stream is
// unchanged.
func (h *Hasher[S]) UnmarshalBinary(b []byte) error {
	sp := h.srv.spec
	if len(b) < len(sp.Magic) || string(b[:len(sp.Magic)]) != sp.Magic {
		return errors.New("hashlanes: " + sp.Name + ": " + errStateID.Error())
	}
	if len(b) != marshaledSize(sp) {
		return errors.New("hashlanes: " + sp.Name + ": " + errStateSize.Error())
	}
	h.enter()
	defer h.leave()
	b = sp.ReadState(b[len(sp.Magic):], &h.state)
	b = b[copy(h.buf[:sp.BlockSize], b):]
	h.n = binary.BigEndian.Uint64(b)
	h.nbuf = int(h.n % uint64(sp.BlockSize))
	return nil
}

// Clone returns an independent copy of the stream.
func (h *Hasher[S]) Clone() (hash.Cloner, error) {
	h.enter()
	defer h.leave()
	c := h.srv.NewHash()
	c.state, c.n, c.nbuf, c.buf = h.state, h.n, h.nbuf, h.buf
	return c, nil
}
