package kernel

import (
	"encoding"
	"hash"
	"sync"

	"github.com/hashlanes/hashlanes/internal/cpu"
)

// LibSingles are the single-stream kernels of a package whose lone stream
// runs the standard library's assembly: the pure-Go reference, generic,
// then "stdlib", whole blocks through the library's hasher (LibBlocks).
func LibSingles[S any](generic func(*S, []byte), sp *Spec[S]) []Single[S] {
	return []Single[S]{
		{Name: "generic", Level: cpu.Generic, Reference: true, Fn: generic},
		{Name: "stdlib", Level: cpu.Generic, Fn: LibBlocks(sp)},
	}
}

// LibBlocks returns a single-stream block function that runs whole blocks
// through the standard library's hasher (sp.Lib), reached through the
// state format it documents (magic, chaining value, buffer, length): for
// a GOARCH where the library's own assembly is the fastest single stream.
// Loading and saving the state costs about a block, so the engine calls
// it with as many blocks at once as it has.
func LibBlocks[S any](sp *Spec[S]) func(s *S, p []byte) {
	type lib struct {
		h   hash.Hash
		buf []byte
	}
	pool := &sync.Pool{New: func() any { return &lib{h: sp.Lib()} }}
	zeros := make([]byte, sp.BlockSize+8) // an empty buffer, and a length of 0
	return func(s *S, p []byte) {
		n := len(p) / sp.BlockSize * sp.BlockSize
		if n == 0 {
			return
		}
		l := pool.Get().(*lib)
		st := append(sp.AppendState(append(l.buf[:0], sp.Magic...), s), zeros...)
		if err := l.h.(encoding.BinaryUnmarshaler).UnmarshalBinary(st); err != nil {
			panic(err) // a state built here, in the library's own format
		}
		l.h.Write(p[:n])
		st, _ = l.h.(encoding.BinaryAppender).AppendBinary(st[:0])
		sp.ReadState(st[len(sp.Magic):], s)
		l.buf = st
		pool.Put(l)
	}
}
