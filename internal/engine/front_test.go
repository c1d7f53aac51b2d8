package engine

import (
	"bytes"
	"crypto/sha256"
	"crypto/sha512"
	"encoding"
	"hash"
	"math/rand/v2"
	"testing"

	"github.com/hashlanes/hashlanes/internal/hashtest"
	"github.com/hashlanes/hashlanes/internal/kernel"
	sha256k "github.com/hashlanes/hashlanes/internal/kernel/sha256"
	sha512k "github.com/hashlanes/hashlanes/internal/kernel/sha512"
	"github.com/hashlanes/hashlanes/internal/tuning"
)

// shortServer is a SHA-256 server on the pure-Go kernels whose
// single-stream kernel is Short or not.
func shortServer(short bool) *Server[sha256k.State] {
	return shortServerOf(testSpec, refBlock(), short)
}

// shortServerOf is a server of spec on the pure-Go kernels (block, one
// stream, and lanes made of it) whose single-stream kernel is Short or
// not.
func shortServerOf[S any](spec *kernel.Spec[S], block func(*S, []byte), short bool) *Server[S] {
	single := kernel.Single[S]{Name: "single", Short: short, Fn: block}
	multi := kernel.Reference(block, spec.BlockSize)
	multi.Name, multi.Reference = "lanes", false
	return NewServer(spec, Kernels[S]{Single: single, Multi: []kernel.Multi[S]{multi}},
		tuning.Fixed(&tuning.Rates{Kernels: map[string]float64{"single": 1000, "lanes": 1000}}, "test"))
}

// TestFront checks a new stream's Front, of 64-byte blocks (SHA-256) and
// of 128-byte ones (SHA-512, whose padding ends in a 16-byte length).
func TestFront(t *testing.T) {
	t.Run("sha256", func(t *testing.T) {
		testFront[sha256k.State, [64]byte](t, testSpec, refBlock(), sha256.New, sha256.New224)
	})
	t.Run("sha512", func(t *testing.T) {
		testFront[sha512k.State, [128]byte](t, &sha512k.Spec512, sha512Ref(), sha512.New, sha512.New384)
	})
}

// sha512Ref is SHA-512's pure-Go single-stream block function.
func sha512Ref() func(*sha512k.State, []byte) {
	for _, s := range sha512k.Singles() {
		if s.Reference {
			return s.Fn
		}
	}
	panic("no reference kernel")
}

// testFront checks a Front: made only where the kernel is Short, its
// digests at every tail length (the padding in its own block, one or two
// blocks of it), a long write that moves it to the engine mid-block, and
// its state saved, restored and cloned, in the Front and in the engine;
// lib is the standard library's hasher of spec, foreign one of another
// algorithm of the same block.
func testFront[S any, B block](t *testing.T, spec *kernel.Spec[S], ref func(*S, []byte), lib, foreign func() hash.Hash) {
	if _, ok := shortServerOf(spec, ref, false).NewStream().(*Hasher[S]); !ok {
		t.Fatal("a server whose kernel is not Short made a Front")
	}
	s := shortServerOf(spec, ref, true)
	newFront := func() *Front[S, B] {
		f, ok := s.NewStream().(*Front[S, B])
		if !ok {
			t.Fatalf("a server whose kernel is Short made no Front of %d-byte blocks", spec.BlockSize)
		}
		return f
	}
	msg := messages(31)
	check := func(what string, h hash.Hash, whole []byte) {
		t.Helper()
		want := lib()
		want.Write(whole)
		if !bytes.Equal(h.Sum(nil), want.Sum(nil)) {
			t.Fatalf("%s: wrong digest", what)
		}
	}

	// Every tail length over two blocks, written whole and in two pieces;
	// Sum twice, as it must leave the stream as it was.
	for n := range 2*spec.BlockSize + 2 {
		m := msg(n)
		f := newFront()
		f.Write(m[:n/3])
		f.Write(m[n/3:])
		check("two writes", f, m)
		check("Sum again", f, m)
		f.Reset()
		f.Write(m)
		check("after Reset", f, m)
	}

	// A long write (beyond awaitMinBytes, never alone) moves the stream to
	// the engine after 100 bytes in the Front; it stays there across a Reset.
	f := newFront()
	head, long, tail := msg(100), msg(awaitMinBytes+70), msg(30)
	f.Write(head)
	if f.eng.Load() != nil {
		t.Fatal("a short write moved the stream to the engine")
	}
	f.Write(long)
	if f.eng.Load() == nil {
		t.Fatal("a write of awaitMinBytes stayed in the Front")
	}
	f.Write(tail)
	whole := bytes.Join([][]byte{head, long, tail}, nil)
	check("moved to the engine", f, whole)
	f.Reset()
	f.Write(head)
	check("reset in the engine", f, head)

	// Saved in the Front mid-block, the state goes on in the standard
	// library's hasher, in a Front, and in one moved to the engine; a
	// clone goes on apart.
	f = newFront()
	f.Write(head)
	st, err := f.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	check("the standard library, from a Front's state", goOnInLibrary(t, lib(), st, tail), append(bytes.Clone(head), tail...))
	c, err := f.Clone()
	if err != nil {
		t.Fatal(err)
	}
	f.Write(long)
	check("Front then engine", f, append(bytes.Clone(head), long...))
	ch := c.(hash.Hash)
	ch.Write(tail)
	check("clone", ch, append(bytes.Clone(head), tail...))
	g := newFront()
	if err := g.UnmarshalBinary(st); err != nil {
		t.Fatal(err)
	}
	g.Write(tail)
	check("a Front restored", g, append(bytes.Clone(head), tail...))
	st2, err := f.MarshalBinary() // from the engine
	if err != nil {
		t.Fatal(err)
	}
	g = newFront()
	if err := g.UnmarshalBinary(st2); err != nil {
		t.Fatal(err)
	}
	check("a Front restored from the engine", g, append(bytes.Clone(head), long...))
	if err := g.UnmarshalBinary(st2[:len(st2)-1]); err == nil {
		t.Error("a Front took a truncated state")
	}
	check("a Front after a state it refused", g, append(bytes.Clone(head), long...))

	hashtest.Run(t, func() hash.Hash { return s.NewStream() }, foreign)
}

// goOnInLibrary restores a state in the standard library's hasher lib and
// writes more to it.
func goOnInLibrary(t *testing.T, lib hash.Hash, st, more []byte) hash.Hash {
	t.Helper()
	if err := lib.(encoding.BinaryUnmarshaler).UnmarshalBinary(st); err != nil {
		t.Fatal(err)
	}
	lib.Write(more)
	return lib
}

// messages returns a maker of random messages of a given length, the same
// ones for the same seed.
func messages(seed uint64) func(n int) []byte {
	r := rand.New(rand.NewPCG(seed, seed+1))
	return func(n int) []byte {
		b := make([]byte, n)
		for i := range b {
			b[i] = byte(r.Uint32())
		}
		return b
	}
}
