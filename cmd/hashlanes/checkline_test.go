package main

import (
	"encoding/base64"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/hashlanes/hashlanes"
	"github.com/hashlanes/hashlanes/cmd/hashlanes/internal/method"
)

// FuzzCheckLine: any line either fails to parse or yields a digest of the
// algorithm's length in lower-case hex and a name that, written back the
// way sum writes it, parses to the same thing.
func FuzzCheckLine(f *testing.F) {
	for _, s := range []string{
		"900150983cd24fb0d6963f7d28e17f72  a",
		"MD5 (a) = 900150983cd24fb0d6963f7d28e17f72",
		"MD5(a)= 900150983CD24FB0D6963F7D28E17F72",
		`\900150983cd24fb0d6963f7d28e17f72  b\\a\nck`,
		"900150983cd24fb0d6963f7d28e17f72 *a",
		"900150983cd24fb0d6963f7d28e17f72 a",
		"\t900150983cd24fb0d6963f7d28e17f72\ta",
		"SHA256 (x) = 2cf24dba5fb0a30e26e83b2ac5b9e29e1b161e5c1fa7425e73043362938b9824",
		`\SHA1 (a\\b) = a9993e364706816aba3e25717850c26c9cd0d89d`,
		"BLAKE3 (x\x00y) = ea8f163db38682925e4491c5e58d4bb3506ef8c14eb78a86e908c5624a67200f",
		"SHA2-512/224(x)= a0fe24b48d508b2095c1137e4e79251ca23da8edb5dbb5851e9fae88",
		"BLAKE2S-256(x)= ec308c07c83582c663e922066c44923bf71bc104ffb82479fb06dc22503c9b0c",
		"dir/a  4788814e  0bee89b07a248e27c83fc3d5951213c1  03cfd743661f07975fa2f1220c5194cbaff48451",
		"         4  0bee89b07a248e27c83fc3d5951213c1  /w/dir/a",
	} {
		f.Add(s, false)
		f.Add(s, true)
	}
	f.Fuzz(func(t *testing.T, line string, detect bool) {
		if strings.ContainsAny(line, "\n") {
			return // lines never hold a newline
		}
		fixed := method.OfEach(hashlanes.MD5)
		if detect {
			fixed = nil
		}
		cl, ok := newLineParser(fixed, detect).parse(line)
		if !ok {
			return
		}
		if len(cl.hex) != 2*cl.alg.Size || strings.Trim(cl.hex, "0123456789abcdef") != "" {
			t.Fatalf("%q: digest %q for %v", line, cl.hex, cl.alg)
		}
		if strings.IndexByte(cl.name, 0) >= 0 {
			t.Fatalf("%q: name %q holds a NUL", line, cl.name)
		}
		if cl.name == "" {
			return // an empty name cannot be written back in the two-space form
		}
		if len(cl.digests) > 0 || cl.sized { // another tool's line: written back as that tool writes it
			checkToolLine(t, line, cl, fixed, detect)
			return
		}
		if cl.alg.Name == "crc32b" { // an SFV line (rhash): written back as one
			again := cl.name + " " + strings.ToUpper(cl.hex)
			if cl2, ok := newLineParser(fixed, detect).parse(again); !ok || cl2.alg != cl.alg || cl2.hex != cl.hex || cl2.name != cl.name {
				t.Fatalf("%q parsed to %+v; written back as %q it parses to %+v, %v", line, cl, again, cl2, ok)
			}
			return
		}
		for _, tagged := range []bool{false, true} {
			if detect && !tagged {
				if a, _ := newLineParser(nil, false).algOfHexLen(len(cl.hex)); a != cl.alg {
					continue // untagged, the length names another algorithm (documented)
				}
			}
			again := formatCheckLine(cl, tagged)
			cl2, ok := newLineParser(fixed, detect).parse(again)
			if !ok || cl2.alg != cl.alg || cl2.hex != cl.hex || cl2.name != cl.name {
				t.Fatalf("%q parsed to %+v; written back as %q it parses to %+v, %v", line, cl, again, cl2, ok)
			}
		}
	})
}

// checkToolLine checks a line of rhash (several digests) or md5deep -z
// (a size): each digest has the length of every algorithm it may be of,
// and written back as the tool writes it, the line parses to the same.
func checkToolLine(t *testing.T, line string, cl checkLine, fixed []*method.Method, detect bool) {
	again := cl.name
	for _, d := range cl.digests {
		for _, m := range d.algs {
			if len(d.hex) != 2*m.Size {
				t.Fatalf("%q: digest %q for %s", line, d.hex, m.Name)
			}
		}
		again += "  " + d.hex
	}
	if cl.sized {
		again = fmt.Sprintf("%10d  %s  %s", cl.size, cl.hex, cl.name)
	}
	cl2, ok := newLineParser(fixed, detect).parse(again)
	if !ok || cl2.alg != cl.alg || cl2.hex != cl.hex || cl2.name != cl.name || cl2.size != cl.size || len(cl2.digests) != len(cl.digests) {
		t.Fatalf("%q parsed to %+v; written back as %q it parses to %+v, %v", line, cl, again, cl2, ok)
	}
}

// formatCheckLine writes a line as sum prints it.
func formatCheckLine(cl checkLine, tagged bool) string {
	prefix, name := "", cl.name
	if strings.ContainsAny(name, "\\\n\r") {
		prefix, name = `\`, escapeName(name)
	}
	if tagged {
		return prefix + cl.alg.Tag + " (" + name + ") = " + cl.hex
	}
	return prefix + cl.hex + "  " + name
}

// TestTags pins the tags sum writes and check reads to the names the
// coreutils and OpenSSL write, and the drop-ins to GNU's program names.
func TestTags(t *testing.T) {
	want := map[hashlanes.Algorithm]string{
		hashlanes.MD5: "MD5", hashlanes.SHA1: "SHA1", hashlanes.SHA224: "SHA224", hashlanes.SHA256: "SHA256",
		hashlanes.SHA384: "SHA384", hashlanes.SHA512: "SHA512", hashlanes.SHA512_224: "SHA512-224",
		hashlanes.SHA512_256: "SHA512-256", hashlanes.SHA3_224: "SHA3-224", hashlanes.SHA3_256: "SHA3-256",
		hashlanes.SHA3_384: "SHA3-384", hashlanes.SHA3_512: "SHA3-512", hashlanes.BLAKE2b: "BLAKE2b",
		hashlanes.BLAKE2s: "BLAKE2s", hashlanes.BLAKE3: "BLAKE3",
	}
	for _, a := range hashlanes.Algorithms() {
		if got := method.TagOf(a); got != want[a] {
			t.Errorf("tag(%v) = %q, want %q", a, got, want[a])
		}
	}
	names := slices.Sorted(maps.Keys(dropIns))
	if w := []string{"md5sum", "sha1sum", "sha224sum", "sha256sum", "sha384sum", "sha512sum"}; !slices.Equal(names, w) {
		t.Errorf("drop-ins %v, want %v", names, w)
	}
}

// FuzzGNULine: b2sum's and cksum's line parser (with and without -a)
// either refuses a line or yields a digest of the length it names, in hex
// or base64, and a name that, written back tagged (and untagged where the
// tool reads that), parses to the same thing.
func FuzzGNULine(f *testing.F) {
	for _, s := range []string{
		"BLAKE2b-256 (a) = bddd813c634239723171ef3fee98579b94964e3bb1cb3e427262c8c068d52319",
		"bddd813c634239723171ef3fee98579b94964e3bb1cb3e427262c8c068d52319  a",
		"SHA256 (a) = ungWv48Bz+pBQUDeXa4iI7ADYaOWF3qctBD/YfIAFa0=",
		"SHA2-384 (x) = " + strings.Repeat("ab", 48),
		"SHA3-256 (b) = " + strings.Repeat("0", 64),
		"MD5-64 (a) = 900150983cd24fb0",
		`\SM3 (b\\ack) = ` + strings.Repeat("1", 64),
		"ae1e  a",
		"BLAKE2b-0x10 (a) = ae1e",
	} {
		for mode := range 4 {
			f.Add(s, mode)
		}
	}
	f.Fuzz(func(t *testing.T, line string, mode int) {
		if strings.ContainsAny(line, "\n") {
			return
		}
		modes := []gnuLines{
			{alg: method.CksumBLAKE2b},                            // b2sum
			{cksum: true, alg: method.CksumIndex("crc")},          // cksum
			{cksum: true, specified: true, alg: method.CksumSHA2}, // cksum -a sha2
			{cksum: true, specified: true, alg: method.CksumBLAKE2b},
		}
		g := modes[(mode%4+4)%4]
		parse := func(s string) (checkLine, bool) {
			p := newLineParser(nil, false)
			gl := g
			p.gnu = &gl
			return p.parse(s)
		}
		cl, ok := parse(line)
		if !ok {
			return
		}
		if cl.base64 {
			if len(cl.hex) != base64.StdEncoding.EncodedLen(cl.bytes) {
				t.Fatalf("%q: base64 digest %q for %d bytes", line, cl.hex, cl.bytes)
			}
		} else if len(cl.hex) != 2*cl.bytes || strings.Trim(cl.hex, "0123456789abcdef") != "" {
			t.Fatalf("%q: digest %q for %d bytes", line, cl.hex, cl.bytes)
		}
		if strings.IndexByte(cl.name, 0) >= 0 {
			t.Fatalf("%q: name %q holds a NUL", line, cl.name)
		}
		if cl.name == "" || strings.ContainsAny(cl.name, "\r") {
			return // not written back in the two-space form
		}
		tag := cl.alg.Tag
		if cl.bytes < cl.alg.Size {
			tag += "-" + strconv.Itoa(8*cl.bytes)
		}
		prefix, name := "", cl.name
		if strings.ContainsAny(name, "\\\n\r") {
			prefix, name = `\`, escapeName(name)
		}
		forms := []string{prefix + tag + " (" + name + ") = " + cl.hex}
		// Untagged, a base64 digest of all hex digits reads as hex of
		// another length (cksum -a sha2 -l 384 --base64 --untagged against
		// -l 256: GNU documents the ambiguity).
		if (!g.cksum || g.specified) && !cl.base64 {
			forms = append(forms, prefix+cl.hex+"  "+name)
		}
		for _, again := range forms {
			cl2, ok := parse(again)
			if !ok || cl2.alg != cl.alg || cl2.hex != cl.hex || cl2.name != cl.name || cl2.bytes != cl.bytes {
				t.Fatalf("%q parsed to %+v; written back as %q it parses to %+v, %v", line, cl, again, cl2, ok)
			}
		}
	})
}
