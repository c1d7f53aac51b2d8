package blake3tree

import (
	"bytes"
	"context"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"

	"github.com/hashlanes/hashlanes/internal/cpu/cputest"
	"lukechampine.com/blake3"
)

// TestAgainstReference: every length class around chunks, kernel calls,
// leaves and the tree's levels, in the three modes, with short and long
// outputs and any number of parts, equals lukechampine.com/blake3.
func TestAgainstReference(t *testing.T) {
	forEachKernelSet(t, againstReference)
}

func againstReference(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	data := make([]byte, 3*leafLen+5*chunk+17)
	for i := range data {
		data[i] = byte(r.Uint32())
	}
	var key [32]byte
	copy(key[:], "whats the Elvish word for friend")
	var lengths []int
	for _, base := range []int{0, chunk, 16 * chunk, leafLen, 2 * leafLen, 3 * leafLen} {
		for _, d := range []int{-1, 0, 1, 63, 64, 65} {
			if n := base + d; n >= 0 && n <= len(data) {
				lengths = append(lengths, n)
			}
		}
	}
	lengths = append(lengths, len(data), 17*chunk+3, 255*chunk)
	for _, n := range lengths {
		p := data[:n]
		for _, outLen := range []int{32, 64, 131} {
			ref := func(h *blake3.Hasher) []byte {
				h.Write(p)
				out := make([]byte, outLen)
				h.XOF().Read(out)
				return out
			}
			derived := make([]byte, outLen)
			blake3.DeriveKey(derived, "hashlanes 2026-11-26 test context", p)
			for _, c := range []struct {
				name string
				m    Mode
				want []byte
			}{
				{"hash", Hash(), ref(blake3.New(outLen, nil))},
				{"keyed", Keyed(&key), ref(blake3.New(outLen, key[:]))},
				{"derive", DeriveKey("hashlanes 2026-11-26 test context"), derived},
			} {
				for _, parts := range []int{1, 2, 5} {
					got, err := SumReaderAt(context.Background(), bytesAt(p), int64(n), c.m, outLen, parts)
					if err != nil || !bytes.Equal(got, c.want) {
						t.Fatalf("%s of %d bytes, %d out, %d parts: %x, %v\nwant %x", c.name, n, outLen, parts, got, err, c.want)
					}
				}
			}
		}
	}
}

func TestOfficialVector(t *testing.T) {
	// The first of BLAKE3's test vectors: the input of length 1024+1 is
	// bytes 0..250 repeated; its hash starts as below.
	in := make([]byte, 1025)
	for i := range in {
		in[i] = byte(i % 251)
	}
	got := fmt.Sprintf("%x", Sum(Hash(), in, 32))
	if want := "d00278ae47eb27b34faecf67b4fe263f82d5412916c1ffd97c8cb7fb814b8444"; got != want {
		t.Fatalf("hash of 1025 bytes: %s, want %s", got, want)
	}
}

type failAt struct{ at int64 }

func (f failAt) ReadAt(p []byte, off int64) (int, error) {
	if off+int64(len(p)) > f.at {
		return 0, errors.New("boom")
	}
	return len(p), nil
}

func TestErrors(t *testing.T) {
	if _, err := SumReaderAt(context.Background(), failAt{2 * leafLen}, 4*leafLen, Hash(), 32, 2); err == nil || err.Error() != "boom" {
		t.Fatalf("read error: %v", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := SumReaderAt(ctx, failAt{1 << 40}, 4*leafLen, Hash(), 32, 2); err != context.Canceled {
		t.Fatalf("cancelled: %v", err)
	}
	// A file that shrinks under the reader: fewer bytes than its size.
	if _, err := SumReaderAt(context.Background(), bytesAt(make([]byte, 100)), 200, Hash(), 32, 1); err == nil {
		t.Fatal("a short read passed")
	}
}

// TestSumFile: the mapped windows give the reference's output for files
// of sizes around windows and leaves, in one or several parts.
func TestSumFile(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	dir := t.TempDir()
	for _, n := range []int{0, 100, leafLen, leafLen + 1, 2*window - 3*chunk + 5, window, window + leafLen} {
		p := make([]byte, n)
		for i := range p {
			p[i] = byte(r.Uint32())
		}
		name := filepath.Join(dir, fmt.Sprint(n))
		if err := os.WriteFile(name, p, 0o644); err != nil {
			t.Fatal(err)
		}
		f, err := os.Open(name)
		if err != nil {
			t.Fatal(err)
		}
		want := blake3.Sum256(p)
		for _, parts := range []int{1, 3} {
			got, err := SumFile(context.Background(), f, int64(n), Hash(), 32, parts)
			if err != nil || !bytes.Equal(got, want[:]) {
				t.Errorf("%d bytes, %d parts: %x, %v; want %x", n, parts, got, err, want)
			}
		}
		f.Close()
	}
}

// TestSumFileShrunk: a file cut short while it is mapped is an error, not
// a crash.
func TestSumFileShrunk(t *testing.T) {
	if cputest.Emulated() {
		t.Skip("a user-mode emulator reports the fault as a nil dereference, with no address to recover by")
	}
	name := filepath.Join(t.TempDir(), "f")
	if err := os.WriteFile(name, make([]byte, 2*window), 0o644); err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(name)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if err := os.Truncate(name, 100); err != nil {
		t.Fatal(err)
	}
	if _, err := SumFile(context.Background(), f, 2*window, Hash(), 32, 2); err == nil {
		t.Fatal("no error for a file that shrank")
	}
}

// TestOfficialVectors checks the BLAKE3 team's test vectors (hash, keyed
// hash and key derivation, 131 output bytes, inputs of every length class
// to 100,000 bytes of 0..250 repeated), on the kernels and without, in one
// part and several.
func TestOfficialVectors(t *testing.T) {
	data, err := os.ReadFile("testdata/vectors.json")
	if err != nil {
		t.Fatal(err)
	}
	var v struct {
		Key   string
		Cases []struct {
			InputLen  int    `json:"input_len"`
			Hash      string `json:"hash"`
			KeyedHash string `json:"keyed_hash"`
			DeriveKey string `json:"derive_key"`
		}
	}
	if err := json.Unmarshal(data, &v); err != nil {
		t.Fatal(err)
	}
	var key [32]byte
	copy(key[:], v.Key)
	const ctxString = "BLAKE3 2019-12-27 16:29:52 test vectors context"
	forEachKernelSet(t, func(t *testing.T) {
		kernels := useKernels()
		for _, c := range v.Cases {
			in := make([]byte, c.InputLen)
			for i := range in {
				in[i] = byte(i % 251)
			}
			for _, m := range []struct {
				name string
				mode Mode
				want string
			}{{"hash", Hash(), c.Hash}, {"keyed", Keyed(&key), c.KeyedHash}, {"derive", DeriveKey(ctxString), c.DeriveKey}} {
				for _, parts := range []int{1, 3} {
					got, err := SumReaderAt(context.Background(), bytesAt(in), int64(len(in)), m.mode, len(m.want)/2, parts)
					if err != nil || hex.EncodeToString(got) != m.want {
						t.Fatalf("kernels %v, %s of %d bytes, %d parts: %x, %v\nwant %s", kernels, m.name, c.InputLen, parts, got, err, m.want)
					}
				}
			}
			if HaveSmall() && c.InputLen <= SmallMax {
				if got := hex.EncodeToString(Sum256Small(nil, in)); got != c.Hash[:64] {
					t.Fatalf("Sum256Small of %d bytes: %s, want %s", c.InputLen, got, c.Hash[:64])
				}
			}
			if kernels {
				if got := hex.EncodeToString(SumMany(nil, Hash(), [][]byte{in, in[:c.InputLen/2]}, 32)); got[:64] != c.Hash[:64] {
					t.Fatalf("SumMany of %d bytes: %s, want %s", c.InputLen, got[:64], c.Hash[:64])
				}
			}
		}
	})
}
