package sumfile

import (
	"encoding/hex"
	"errors"
	"strings"
)

// B3Line is a parsed line of a b3sum checkfile.
type B3Line struct {
	Shown, Path string // the name as printed (escaped, as in the line) and as opened
	Want        []byte
}

// ParseB3Line parses a checkfile line as b3sum 1.2.0 does, or says why not.
func ParseB3Line(line string) (B3Line, error) {
	if line == "" {
		return B3Line{}, errors.New("Empty line")
	}
	escaped := line[0] == '\\'
	if escaped {
		line = line[1:]
	}
	const hexLen, prefix = 64, 66
	if len(line) <= prefix {
		return B3Line{}, errors.New("Short line")
	}
	for i := range prefix {
		if line[i] >= 0x80 {
			return B3Line{}, errors.New("Non-ASCII prefix")
		}
	}
	if line[hexLen:prefix] != "  " {
		return B3Line{}, errors.New("Invalid space")
	}
	if strings.Trim(line[:hexLen], "0123456789abcdef") != "" {
		return B3Line{}, errors.New("Invalid hex")
	}
	want, _ := hex.DecodeString(line[:hexLen])
	name := line[prefix:]
	l := B3Line{Shown: name, Path: name, Want: want}
	if escaped {
		l.Shown = `\` + name
		var b strings.Builder
		for i := 0; i < len(name); i++ {
			if name[i] != '\\' {
				b.WriteByte(name[i])
				continue
			}
			if i+1 == len(name) {
				return B3Line{}, errors.New("Invalid backslash escape")
			}
			i++
			switch name[i] {
			case '\\':
				b.WriteByte('\\')
			case 'n':
				b.WriteByte('\n')
			default:
				return B3Line{}, errors.New("Invalid backslash escape")
			}
		}
		l.Path = b.String()
	}
	if strings.IndexByte(l.Path, 0) >= 0 {
		return B3Line{}, errors.New("Null character in path")
	}
	return l, nil
}

// AppendB3Line appends a file's line as b3sum writes it: "hex  name", a
// name with a backslash or LF escaped and the line led by a backslash.
func AppendB3Line(b, sum []byte, name string) []byte {
	if strings.ContainsAny(name, "\\\n") {
		b = append(b, '\\')
		name = strings.NewReplacer(`\`, `\\`, "\n", `\n`).Replace(name)
	}
	b = hex.AppendEncode(b, sum)
	return append(append(append(b, "  "...), name...), '\n')
}
