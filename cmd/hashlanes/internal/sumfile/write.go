package sumfile

import (
	"encoding/base64"
	"encoding/binary"
	"fmt"
	"strings"

	"github.com/hashlanes/hashlanes/cmd/hashlanes/internal/method"
)

// AppendSumLine appends a result of the CRCs and the old sums: the value,
// the length (cksum's CRCs) or the blocks (the sums), and with withName
// the name, unescaped, as GNU's output_crc, output_bsd and output_sysv
// print them.
func AppendSumLine(b []byte, m *method.Method, name string, size int64, digest []byte, delim byte, withName bool) []byte {
	switch m.Style {
	case method.CRCLine:
		b = fmt.Appendf(b, "%d %d", binary.BigEndian.Uint32(digest), size)
	case method.BSDLine:
		b = fmt.Appendf(b, "%05d %5d", binary.BigEndian.Uint16(digest), (size+1023)/1024)
	case method.SysVLine:
		b = fmt.Appendf(b, "%d %d", binary.BigEndian.Uint16(digest), (size+511)/512)
	}
	if withName {
		b = append(append(b, ' '), name...)
	}
	return append(b, delim)
}

// Format is how digest lines are written.
type Format struct {
	Tagged bool // "TAG (name) = digest", else "digest  name"
	Binary bool // untagged, "digest *name"
	Zero   bool // lines end with NUL, not LF, and names are not escaped
	Base64 bool // digests in base64 (cksum --base64), not hex
}

// AppendDigestLines appends a file's digest lines, one per method, the GNU
// way: a name with a backslash, LF or CR is escaped and its line starts
// with a backslash, except with Zero.
func AppendDigestLines(b []byte, name string, ms []*method.Method, sums [][]byte, f Format) []byte {
	delim := byte('\n')
	if f.Zero {
		delim = 0
	}
	escape := !f.Zero && strings.ContainsAny(name, "\\\n\r")
	if escape {
		name = Escape(name)
	}
	for k, m := range ms {
		if escape {
			b = append(b, '\\')
		}
		digest := method.Hex(sums[k])
		if f.Base64 {
			digest = base64.StdEncoding.EncodeToString(sums[k])
		}
		switch {
		case f.Tagged:
			b = append(append(append(append(append(b, m.Tag...), " ("...), name...), ") = "...), digest...)
		case f.Binary:
			b = append(append(append(b, digest...), " *"...), name...)
		default:
			b = append(append(append(b, digest...), "  "...), name...)
		}
		b = append(b, delim)
	}
	return b
}

// Escape escapes backslash, LF and CR as the coreutils do.
func Escape(name string) string {
	return strings.NewReplacer(`\`, `\\`, "\n", `\n`, "\r", `\r`).Replace(name)
}
