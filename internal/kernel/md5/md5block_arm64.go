//go:build !purego

package md5

import (
	"crypto/md5"
	"encoding"
	"encoding/binary"
	"hash"
	"sync"

	"github.com/hashlanes/hashlanes/internal/cpu"
	"github.com/hashlanes/hashlanes/internal/kernel"
)

// A lone stream runs crypto/md5's arm64 assembly; the NEON lanes (every
// arm64 CPU has NEON) run concurrent ones.
var singles = []kernel.Single[State]{
	{Name: "generic", Level: cpu.Generic, Reference: true, Fn: blockGeneric},
	{Name: "stdlib", Level: cpu.Generic, Fn: blockStdlib},
}

// multis: the reference, then the generated kernels.
var multis = append([]kernel.Multi[State]{generic}, laneKernels...)

var batches []kernel.Batch

// stdlibBlock is a crypto/md5 digest with room for its marshalled state:
// the standard library's block function is reached through the state
// format it documents (magic, chaining value, buffer, length).
type stdlibBlock struct {
	h   hash.Hash
	buf [4 + 4*4 + BlockSize + 8]byte
}

var stdlibBlocks = sync.Pool{New: func() any { return &stdlibBlock{h: md5.New()} }}

// blockStdlib runs whole blocks through crypto/md5. Loading and saving
// the state costs about a block, so the engine calls it with as many
// blocks at once as it has.
func blockStdlib(s *State, p []byte) {
	if len(p) < BlockSize {
		return
	}
	b := stdlibBlocks.Get().(*stdlibBlock)
	st := append(b.buf[:0], Spec.Magic...)
	for _, w := range s {
		st = binary.BigEndian.AppendUint32(st, w)
	}
	st = st[:len(b.buf)]
	clear(st[4+16:]) // empty buffer, length 0 mod 64
	if err := b.h.(encoding.BinaryUnmarshaler).UnmarshalBinary(st); err != nil {
		panic(err) // a state we built ourselves
	}
	b.h.Write(p[:len(p)/BlockSize*BlockSize])
	st, _ = b.h.(encoding.BinaryAppender).AppendBinary(b.buf[:0])
	for i := range s {
		s[i] = binary.BigEndian.Uint32(st[4+4*i:])
	}
	stdlibBlocks.Put(b)
}
