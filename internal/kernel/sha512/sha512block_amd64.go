//go:build !purego

package sha512

import (
	"crypto/sha512"
	"encoding"
	"encoding/binary"
	"hash"
	"sync"
	"unsafe"

	"github.com/hashlanes/hashlanes/internal/cpu"
	"github.com/hashlanes/hashlanes/internal/kernel"
)

//go:generate go run -C ../_asm ./sha512 -out ../sha512/sha512block_amd64.s -stubs ../sha512/sha512block_amd64_stubs.go -lanes ../sha512/sha512block_lanes_amd64.go -pkg sha512

var singles = []kernel.Single[State]{
	{Name: "generic", Level: cpu.Generic, Reference: true, Fn: blockGeneric},
	{Name: "stdlib", Level: cpu.Generic, Fn: blockStdlib},
}

func batches(init *State, size int) []kernel.Batch {
	return batchKernels((*byte)(unsafe.Pointer(init)), size)
}

// multis: the reference, then the generated kernels.
var multis = append([]kernel.Multi[State]{generic}, laneKernels...)

// stdlibBlock is a crypto/sha512 digest with room for its marshalled
// state: the standard library's block function is reached through the
// state format it documents (magic, chaining value, buffer, length).
type stdlibBlock struct {
	h   hash.Hash
	buf [4 + 8*8 + BlockSize + 8]byte
}

var stdlibBlocks = sync.Pool{New: func() any { return &stdlibBlock{h: sha512.New()} }}

// blockStdlib runs whole blocks through crypto/sha512, whose AVX2
// assembly is the fastest single stream on amd64 (the scalar round is
// bound by its dependency chain, so one stream gains nothing from wider
// registers). Loading and saving the state costs about what one block
// does, so the engine calls it with as many blocks at once as it has.
func blockStdlib(s *State, p []byte) {
	if len(p) < BlockSize {
		return
	}
	b := stdlibBlocks.Get().(*stdlibBlock)
	st := append(b.buf[:0], "sha\x07"...)
	for _, w := range s {
		st = binary.BigEndian.AppendUint64(st, w)
	}
	st = st[:len(b.buf)]
	clear(st[4+64:]) // empty buffer, length 0 mod 128
	if err := b.h.(encoding.BinaryUnmarshaler).UnmarshalBinary(st); err != nil {
		panic(err) // a state we built ourselves
	}
	b.h.Write(p[:len(p)/BlockSize*BlockSize])
	st, _ = b.h.(encoding.BinaryAppender).AppendBinary(b.buf[:0])
	for i := range s {
		s[i] = binary.BigEndian.Uint64(st[4+8*i:])
	}
	stdlibBlocks.Put(b)
}
