package kernel

import (
	"encoding/binary"
	"hash"
	"unsafe"
)

// Spec describes one algorithm of the Merkle-Damgård family as the engine
// runs it over a kernel package's block functions: block and digest sizes,
// the length field its padding ends with, how its digest is read from the
// final state, and the standard library's marshalled form of its state.
// Each kernel package declares the Specs of its algorithms beside its
// State; the kernels themselves never read one.
type Spec[S any] struct {
	Name      string
	Size      int // digest bytes
	BlockSize int
	Init      S
	LenBytes  int  // length field of the padding: 8 or 16
	BigEndian bool // byte order of the length field

	// AppendDigest appends the first Size bytes of the encoded state.
	AppendDigest func(b []byte, s *S) []byte

	// Magic starts a marshalled state; AppendState and ReadState write and
	// read the chaining value in the standard library's byte order.
	Magic       string
	AppendState func(b []byte, s *S) []byte
	ReadState   func(b []byte, s *S) []byte

	// Lib returns the standard library's hasher of the algorithm, whose
	// marshalled state is the format above: a stream of short writes
	// alone costs there what the standard library costs, without the
	// engine's bookkeeping around each block.
	Lib func() hash.Hash
}

// AppendWordsBE appends a state's words big-endian, the standard
// library's marshalled form of every algorithm here (MD5's too).
func AppendWordsBE[W Word, S any](b []byte, s *S) []byte {
	for _, w := range Words[W](s) {
		if unsafe.Sizeof(w) == 8 {
			b = binary.BigEndian.AppendUint64(b, uint64(w))
		} else {
			b = binary.BigEndian.AppendUint32(b, uint32(w))
		}
	}
	return b
}

// ReadWordsBE reads a state written by AppendWordsBE and returns the rest
// of b.
func ReadWordsBE[W Word, S any](b []byte, s *S) []byte {
	w := Words[W](s)
	size := int(unsafe.Sizeof(W(0)))
	for i := range w {
		if size == 8 {
			w[i] = W(binary.BigEndian.Uint64(b[8*i:]))
		} else {
			w[i] = W(binary.BigEndian.Uint32(b[4*i:]))
		}
	}
	return b[size*len(w):]
}

// DigestBE appends the digest of the SHA family: the state's first size
// bytes, big-endian, which for SHA-224 and SHA-512/224 ends inside a word.
// It writes no byte past them, as SumMany writes digests in place. The
// packages wrap it in a function of each size: a Spec's AppendDigest is a
// plain function, so that a Spec is static data, made by no code at a
// process's start. Where the digest is the whole state, AppendWordsBE is
// it.
func DigestBE[W Word, S any](b []byte, s *S, size int) []byte {
	var buf [64]byte
	return append(b, AppendWordsBE[W](buf[:0], s)[:size]...)
}

// Word is the word of a chaining state.
type Word interface{ uint32 | uint64 }

// Words views a state as a slice of its words.
func Words[W Word, S any](s *S) []W {
	var w W
	return unsafe.Slice((*W)(unsafe.Pointer(s)), unsafe.Sizeof(*s)/unsafe.Sizeof(w))
}
