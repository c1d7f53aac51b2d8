package gnu

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"strings"
	"syscall"
	"unicode"
	"unicode/utf8"
)

// Quote quotes a file name for a diagnostic the way the coreutils do
// (gnulib's quotef: shell-escape style, colons quoted too): a name that
// needs nothing is printed as is; otherwise it is single-quoted, with
// unprintable bytes as $'\n' or $'\ooo' pieces; a name whose only problem
// is a single quote is double-quoted. What is printable follows the
// locale's character type (UTF-8 or not), as in C.
func Quote(name string) string {
	utf8Locale := localeIsUTF8()
	if name == "" {
		return "''"
	}
	needs, onlyCompat, hasQuote := false, true, false
	for i, r := range runesOf(name, utf8Locale) {
		switch {
		case r.bad || !printable(r.r):
			needs, onlyCompat = true, false
		case r.r == '\'':
			needs, hasQuote = true, true
		case r.r == ' ':
			needs = true
		case (r.r == '#' || r.r == '~') && i == 0:
			needs = true
		case (r.r == '{' || r.r == '}') && len(name) == 1:
			needs, onlyCompat = true, false
		case r.r < utf8.RuneSelf && strings.ContainsRune("!\"$&()*;<=>?[\\^`|:", r.r):
			needs, onlyCompat = true, false
		}
	}
	if !needs {
		return name
	}
	if hasQuote && onlyCompat {
		return `"` + name + `"`
	}
	var b strings.Builder
	b.WriteByte('\'')
	inQuote, inEscape := true, false
	for _, r := range runesOf(name, utf8Locale) {
		if r.bad || !printable(r.r) {
			if inQuote {
				b.WriteByte('\'')
				inQuote = false
			}
			if !inEscape {
				b.WriteString("$'")
				inEscape = true
			}
			for _, c := range []byte(r.s) {
				b.WriteString(cEscape(c))
			}
			continue
		}
		if inEscape {
			b.WriteByte('\'')
			inEscape = false
		}
		if !inQuote {
			b.WriteByte('\'')
			inQuote = true
		}
		if r.r == '\'' {
			b.WriteString(`'\''`)
		} else {
			b.WriteString(r.s)
		}
	}
	if inQuote || inEscape {
		b.WriteByte('\'')
	}
	return b.String()
}

type nameRune struct {
	r   rune
	s   string
	bad bool // a byte that is not a character in the locale
}

// runesOf splits s into characters: UTF-8 sequences in a UTF-8 locale,
// single bytes otherwise (where bytes past ASCII are unprintable).
func runesOf(s string, utf8Locale bool) []nameRune {
	var out []nameRune
	for i := 0; i < len(s); {
		if !utf8Locale || s[i] < utf8.RuneSelf {
			out = append(out, nameRune{rune(s[i]), s[i : i+1], s[i] >= utf8.RuneSelf})
			i++
			continue
		}
		r, n := utf8.DecodeRuneInString(s[i:])
		out = append(out, nameRune{r, s[i : i+n], r == utf8.RuneError && n == 1})
		i += n
	}
	return out
}

func printable(r rune) bool {
	if r < utf8.RuneSelf {
		return r >= 0x20 && r < 0x7f
	}
	return !unicode.IsControl(r)
}

func cEscape(c byte) string {
	switch c {
	case '\a':
		return `\a`
	case '\b':
		return `\b`
	case '\f':
		return `\f`
	case '\n':
		return `\n`
	case '\r':
		return `\r`
	case '\t':
		return `\t`
	case '\v':
		return `\v`
	}
	return fmt.Sprintf(`\%03o`, c)
}

func localeIsUTF8() bool {
	for _, v := range []string{"LC_ALL", "LC_CTYPE", "LANG"} {
		if s := os.Getenv(v); s != "" {
			s = strings.ToLower(s)
			return strings.Contains(s, "utf-8") || strings.Contains(s, "utf8")
		}
	}
	return false
}

// Strerror returns the C library's text for the error underneath err, as
// the coreutils print it ("No such file or directory"): Go's errno texts
// are glibc's with a lower-case first letter.
func Strerror(err error) string {
	var errno syscall.Errno
	if errors.As(err, &errno) {
		s := errno.Error()
		if s != "" {
			return strings.ToUpper(s[:1]) + s[1:]
		}
	}
	var pe *fs.PathError
	if errors.As(err, &pe) {
		err = pe.Err
	}
	return err.Error()
}
