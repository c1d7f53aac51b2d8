package main

import (
	"bytes"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// TestCheckLinesAgainstGNU feeds GNU's md5sum -c and the drop-in the same
// lists of mutated checksum lines (random edits of every form GNU
// accepts) and wants the same verdict for each line.
func TestCheckLinesAgainstGNU(t *testing.T) {
	gnuCoreutils(t)
	dir := t.TempDir()
	if err := makeFixture(dir); err != nil {
		t.Fatal(err)
	}
	bases := []string{
		"900150983cd24fb0d6963f7d28e17f72  a",
		"900150983cd24fb0d6963f7d28e17f72 *a",
		"900150983cd24fb0d6963f7d28e17f72 a",
		"MD5 (a) = 900150983cd24fb0d6963f7d28e17f72",
		"MD5(a)= 900150983CD24FB0D6963F7D28E17F72",
		`\415290769594460e2e485922904f345d  b\\ack`,
		`\MD5 (b\\ack) = 415290769594460e2e485922904f345d`,
		"d41d8cd98f00b204e9800998ecf8427e  empty",
		"# comment",
	}
	alphabet := []byte(" \t\\*()=#-abcdef0123456789MD5\r\x00\xffn")
	r := rand.New(rand.NewPCG(7, 7))
	rounds := 8 // HASHLANES_GNU_ROUNDS=1000 for a longer search by hand
	if n, err := strconv.Atoi(os.Getenv("HASHLANES_GNU_ROUNDS")); err == nil {
		rounds = n
	}
	for round := range rounds {
		var list bytes.Buffer
		for range 300 {
			line := []byte(bases[r.IntN(len(bases))])
			for range r.IntN(4) {
				i := r.IntN(len(line) + 1)
				switch r.IntN(3) {
				case 0: // insert
					line = append(line[:i], append([]byte{alphabet[r.IntN(len(alphabet))]}, line[i:]...)...)
				case 1: // delete
					if i < len(line) {
						line = append(line[:i], line[i+1:]...)
					}
				case 2: // replace
					if i < len(line) {
						line[i] = alphabet[r.IntN(len(alphabet))]
					}
				}
			}
			list.Write(line)
			list.WriteByte('\n')
		}
		name := filepath.Join(dir, "random.sums")
		if err := os.WriteFile(name, list.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
		for _, opts := range [][]string{{"-c", "-w"}, {"-c", "--strict", "--ignore-missing"}} {
			c := caseLine{args: append(append([]string{"md5sum"}, opts...), "random.sums")}
			c.text = strings.Join(c.args, " ")
			want, got := gnuOutcome(t, dir, c), runOurs(t, dir, c)
			if !bytes.Equal(got.stdout, want.stdout) || !bytes.Equal(got.stderr, want.stderr) || got.exit != want.exit {
				t.Fatalf("round %d, %s: outputs differ\n got %q\n %q\nwant %q\n %q\nlist:\n%q", round, c.text,
					got.stdout, got.stderr, want.stdout, want.stderr, list.String())
			}
		}
	}
}
