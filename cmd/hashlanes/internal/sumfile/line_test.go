package sumfile

import (
	"bytes"
	"encoding/base64"
	"encoding/hex"
	"fmt"
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
		cl, ok := NewParser(fixed, detect).Parse(line)
		if !ok {
			return
		}
		if len(cl.Hex) != 2*cl.Alg.Size || strings.Trim(cl.Hex, "0123456789abcdef") != "" {
			t.Fatalf("%q: digest %q for %v", line, cl.Hex, cl.Alg)
		}
		if strings.IndexByte(cl.Name, 0) >= 0 {
			t.Fatalf("%q: name %q holds a NUL", line, cl.Name)
		}
		if cl.Name == "" {
			return // an empty name cannot be written back in the two-space form
		}
		if len(cl.Digests) > 0 || cl.Sized { // another tool's line: written back as that tool writes it
			checkToolLine(t, line, cl, fixed, detect)
			return
		}
		if cl.Alg.Name == "crc32b" { // an SFV line (rhash): written back as one
			again := cl.Name + " " + strings.ToUpper(cl.Hex)
			if cl2, ok := NewParser(fixed, detect).Parse(again); !ok || cl2.Alg != cl.Alg || cl2.Hex != cl.Hex || cl2.Name != cl.Name {
				t.Fatalf("%q parsed to %+v; written back as %q it parses to %+v, %v", line, cl, again, cl2, ok)
			}
			return
		}
		for _, tagged := range []bool{false, true} {
			if detect && !tagged {
				if a, _ := NewParser(nil, false).algOfHexLen(len(cl.Hex)); a != cl.Alg {
					continue // untagged, the length names another algorithm (documented)
				}
			}
			again := formatCheckLine(cl, tagged)
			cl2, ok := NewParser(fixed, detect).Parse(again)
			if !ok || cl2.Alg != cl.Alg || cl2.Hex != cl.Hex || cl2.Name != cl.Name {
				t.Fatalf("%q parsed to %+v; written back as %q it parses to %+v, %v", line, cl, again, cl2, ok)
			}
		}
	})
}

// checkToolLine checks a line of rhash (several digests) or md5deep -z
// (a size): each digest has the length of every algorithm it may be of,
// and written back as the tool writes it, the line parses to the same.
func checkToolLine(t *testing.T, line string, cl Line, fixed []*method.Method, detect bool) {
	again := cl.Name
	for _, d := range cl.Digests {
		for _, m := range d.Algs {
			if len(d.Hex) != 2*m.Size {
				t.Fatalf("%q: digest %q for %s", line, d.Hex, m.Name)
			}
		}
		again += "  " + d.Hex
	}
	if cl.Sized {
		again = fmt.Sprintf("%10d  %s  %s", cl.Size, cl.Hex, cl.Name)
	}
	cl2, ok := NewParser(fixed, detect).Parse(again)
	if !ok || cl2.Alg != cl.Alg || cl2.Hex != cl.Hex || cl2.Name != cl.Name || cl2.Size != cl.Size || len(cl2.Digests) != len(cl.Digests) {
		t.Fatalf("%q parsed to %+v; written back as %q it parses to %+v, %v", line, cl, again, cl2, ok)
	}
}

// formatCheckLine writes a line back as sum prints it.
func formatCheckLine(cl Line, tagged bool) string {
	sum, _ := hex.DecodeString(cl.Hex)
	line := AppendDigestLines(nil, cl.Name, []*method.Method{cl.Alg}, [][]byte{sum}, Format{Tagged: tagged})
	return strings.TrimSuffix(string(line), "\n")
}

// FuzzB3Line: a b3sum checkfile line either fails to parse or, written
// back as b3sum writes it, parses to the same name and digest.
func FuzzB3Line(f *testing.F) {
	h := strings.Repeat("ab", 32)
	for _, s := range []string{h + "  a", `\` + h + `  b\\ack\nx`, h + " *a", `\` + h + `  a\q`, h + "  a\x00b", strings.ToUpper(h) + "  a"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, line string) {
		l, err := ParseB3Line(line)
		if err != nil {
			return
		}
		if len(l.Want) != 32 || strings.IndexByte(l.Path, 0) >= 0 {
			t.Fatalf("%q: digest %x, path %q", line, l.Want, l.Path)
		}
		again := strings.TrimSuffix(string(AppendB3Line(nil, l.Want, l.Path)), "\n")
		l2, err := ParseB3Line(again)
		if err != nil || l2.Path != l.Path || !bytes.Equal(l2.Want, l.Want) {
			t.Fatalf("%q parsed to %+v; written back as %q it parses to %+v, %v", line, l, again, l2, err)
		}
	})
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
		modes := []GNULines{
			{Alg: method.CksumBLAKE2b},                            // b2sum
			{Cksum: true, Alg: method.CksumIndex("crc")},          // cksum
			{Cksum: true, Specified: true, Alg: method.CksumSHA2}, // cksum -a sha2
			{Cksum: true, Specified: true, Alg: method.CksumBLAKE2b},
		}
		g := modes[(mode%4+4)%4]
		parse := func(s string) (Line, bool) {
			p := NewParser(nil, false)
			gl := g
			p.GNU = &gl
			return p.Parse(s)
		}
		cl, ok := parse(line)
		if !ok {
			return
		}
		if cl.Base64 {
			if len(cl.Hex) != base64.StdEncoding.EncodedLen(cl.Bytes) {
				t.Fatalf("%q: base64 digest %q for %d bytes", line, cl.Hex, cl.Bytes)
			}
		} else if len(cl.Hex) != 2*cl.Bytes || strings.Trim(cl.Hex, "0123456789abcdef") != "" {
			t.Fatalf("%q: digest %q for %d bytes", line, cl.Hex, cl.Bytes)
		}
		if strings.IndexByte(cl.Name, 0) >= 0 {
			t.Fatalf("%q: name %q holds a NUL", line, cl.Name)
		}
		if cl.Name == "" || strings.ContainsAny(cl.Name, "\r") {
			return // not written back in the two-space form
		}
		tag := cl.Alg.Tag
		if cl.Bytes < cl.Alg.Size {
			tag += "-" + strconv.Itoa(8*cl.Bytes)
		}
		prefix, name := "", cl.Name
		if strings.ContainsAny(name, "\\\n\r") {
			prefix, name = `\`, Escape(name)
		}
		forms := []string{prefix + tag + " (" + name + ") = " + cl.Hex}
		// Untagged, a base64 digest of all hex digits reads as hex of
		// another length (cksum -a sha2 -l 384 --base64 --untagged against
		// -l 256: GNU documents the ambiguity).
		if (!g.Cksum || g.Specified) && !cl.Base64 {
			forms = append(forms, prefix+cl.Hex+"  "+name)
		}
		for _, again := range forms {
			cl2, ok := parse(again)
			if !ok || cl2.Alg != cl.Alg || cl2.Hex != cl.Hex || cl2.Name != cl.Name || cl2.Bytes != cl.Bytes {
				t.Fatalf("%q parsed to %+v; written back as %q it parses to %+v, %v", line, cl, again, cl2, ok)
			}
		}
	})
}
