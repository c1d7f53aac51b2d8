package filesum

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hashlanes/hashlanes"
	"github.com/hashlanes/hashlanes/cmd/hashlanes/internal/method"
)

// TestItemsInOrder: results come in the items' order, the "-" operands
// take standard input in turn (the first reads it to its end), a problem
// met while listing comes back in its place, and a file hashed with its
// method's splitter gives the digest hashed whole gives.
func TestItemsInOrder(t *testing.T) {
	dir := t.TempDir()
	big := bytes.Repeat([]byte("hashlanes"), 1<<18)
	name := filepath.Join(dir, "big")
	if err := os.WriteFile(name, big, 0o644); err != nil {
		t.Fatal(err)
	}
	listed := os.ErrPermission
	items := []Item{{Name: name, Size: -1}, {Name: "-"}, {Name: "nowhere", Err: listed}, {Name: "-", StdinTurn: 1}}
	inputs := [][]byte{big, []byte("abc"), nil, nil}
	defer func() { SplitMinTest = -1 }()
	for _, split := range []int64{-1, 0} {
		SplitMinTest = split
		for _, a := range []hashlanes.Algorithm{hashlanes.SHA256, hashlanes.BLAKE3} {
			j := &Job{Ctx: context.Background(), Stdin: strings.NewReader("abc"), Threads: 2}
			next := 0
			j.Items(method.OfEach(a), items, func(i int, s hashlanes.StreamSum) {
				if i != next {
					t.Fatalf("result %d came where %d was due", i, next)
				}
				next++
				if i == 2 {
					if s.Err != listed {
						t.Errorf("item 2: error %v, want %v", s.Err, listed)
					}
					return
				}
				if s.Err != nil {
					t.Fatalf("item %d: %v", i, s.Err)
				}
				if want := hashlanes.Sum(a, inputs[i]); !bytes.Equal(s.Sums[0], want) {
					t.Errorf("%v, split from %d, item %d: %x, want %x", a, split, i, s.Sums[0], want)
				}
			})
			if next != len(items) {
				t.Fatalf("%d results of %d", next, len(items))
			}
		}
	}
}
