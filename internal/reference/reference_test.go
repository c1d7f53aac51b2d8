package reference_test

import (
	"bytes"
	"testing"

	_ "github.com/hashlanes/hashlanes/blake2"
	"github.com/hashlanes/hashlanes/internal/reference"
	_ "github.com/hashlanes/hashlanes/internal/reference/blake3ref"
)

// end is one past the last ID.
const end = reference.BLAKE3 + 1

// TestSumIsNew: each one-shot function gives what the hasher gives, for
// lengths around the block sizes, and names and packages are set.
func TestSumIsNew(t *testing.T) {
	for id := reference.MD5; id < end; id++ {
		if id.Name() == "" || id.Package() == "" {
			t.Errorf("%d: name %q, package %q", id, id.Name(), id.Package())
		}
		if got, ok := reference.Named(id.Name()); !ok || got != id {
			t.Errorf("Named(%q) = %d, %v", id.Name(), got, ok)
		}
		for _, n := range []int{0, 1, 55, 56, 64, 111, 112, 128, 200, 1000} {
			m := bytes.Repeat([]byte{byte(n)}, n)
			h := id.New()
			h.Write(m)
			if want, got := h.Sum([]byte("x")), id.Sum([]byte("x"), m); !bytes.Equal(got, want) {
				t.Fatalf("%s, %d bytes: Sum %x, New %x", id.Name(), n, got, want)
			}
		}
	}
	if _, ok := reference.Named("md4"); ok {
		t.Error("an unknown name was found")
	}
	defer func() {
		if recover() == nil {
			t.Error("an unknown ID did not panic")
		}
	}()
	end.New()
}
