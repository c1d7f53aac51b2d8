package hashlanes

import (
	"crypto/sha1"
	"crypto/sha256"
	"crypto/sha512"
	"fmt"
	"hash"

	"github.com/hashlanes/hashlanes/internal/cpu"
	"github.com/hashlanes/hashlanes/internal/engine"
)

// newServer wires algorithm a to its engine at CPU level l.
func newServer(a Algorithm, l cpu.Level) *Server {
	switch a {
	case MD5:
		return fromEngine(a, engine.NewServer(md5Spec, md5Kernels(l)))
	}
	// Not multi-lane yet: the standard library's implementation.
	newStd := stdlib[a]
	return newServerOf(a, newStd, func() error { return nil }, "stdlib")
}

func newServerOf(a Algorithm, newHash func() hash.Hash, close func() error, kernel string) *Server {
	s := &Server{alg: a, newHash: newHash, close: close, kernel: kernel}
	s.pool.New = func() any { return newHash() }
	return s
}

var stdlib = [maxAlgorithm]func() hash.Hash{
	SHA1:       sha1.New,
	SHA224:     sha256.New224,
	SHA256:     sha256.New,
	SHA384:     sha512.New384,
	SHA512:     sha512.New,
	SHA512_224: sha512.New512_224,
	SHA512_256: sha512.New512_256,
}

func fromEngine[S any](a Algorithm, e *engine.Server[S]) *Server {
	k := e.Kernels()
	desc := k.Single.Name + " (single stream)"
	for i := len(k.Multi) - 1; i >= 0; i-- {
		desc = fmt.Sprintf("%s (%d lanes) + %s", k.Multi[i].Name, k.Multi[i].Lanes, desc)
	}
	s := newServerOf(a, func() hash.Hash { return e.NewHash() }, e.Close, desc)
	s.stats = func() Stats { return Stats(e.Stats()) }
	return s
}

// sum hashes one message on a pooled hasher of the server.
func (s *Server) sum(data []byte) []byte {
	h := s.pool.Get().(hash.Hash)
	h.Reset()
	h.Write(data)
	out := h.Sum(make([]byte, 0, s.alg.Size()))
	s.pool.Put(h)
	return out
}
