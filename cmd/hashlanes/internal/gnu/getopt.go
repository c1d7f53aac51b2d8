package gnu

import (
	"fmt"
	"os"
	"strings"
)

// Option is one entry of a command's option table, as in getopt_long: a
// long name, an optional short letter, and whether it takes an argument.
type Option struct {
	Long  string
	Short byte
	Arg   bool
}

// ParsedOption is an option as met on the command line.
type ParsedOption struct {
	Opt *Option
	Val string
}

// Getopt parses args the way glibc's getopt_long does for the coreutils:
// options may follow operands (unless POSIXLY_CORRECT is set), "--" ends
// them, a lone "-" is an operand, short options cluster ("-bz"), long ones
// may be abbreviated to any unambiguous prefix and take "=value" or the
// next argument. It returns the options in order, the operands, and the
// first error with glibc's wording (without the program name), which the
// caller reports after acting on the options before it, as getopt's caller
// would (so "--help --bogus" prints the help).
//
// No Go library reproduces glibc's messages and abbreviation rules, and a
// drop-in must print them byte for byte, hence this small parser.
func Getopt(table []Option, args []string) (opts []ParsedOption, operands []string, err error) {
	posix := os.Getenv("POSIXLY_CORRECT") != ""
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "--":
			return opts, append(operands, args[i+1:]...), nil
		case strings.HasPrefix(a, "--"):
			name, val, hasVal := strings.Cut(a[2:], "=")
			o, e := lookupLong(table, name, a[2:])
			if e != nil {
				return opts, operands, e
			}
			switch {
			case hasVal && !o.Arg:
				return opts, operands, fmt.Errorf("option '--%s' doesn't allow an argument", o.Long)
			case o.Arg && !hasVal:
				if i+1 == len(args) {
					return opts, operands, fmt.Errorf("option '--%s' requires an argument", o.Long)
				}
				i++
				val = args[i]
			}
			opts = append(opts, ParsedOption{o, val})
		case len(a) > 1 && a[0] == '-':
			for j := 1; j < len(a); j++ {
				o := lookupShort(table, a[j])
				if o == nil {
					return opts, operands, fmt.Errorf("invalid option -- '%c'", a[j])
				}
				if !o.Arg {
					opts = append(opts, ParsedOption{o, ""})
					continue
				}
				val := a[j+1:]
				if val == "" {
					if i+1 == len(args) {
						return opts, operands, fmt.Errorf("option requires an argument -- '%c'", a[j])
					}
					i++
					val = args[i]
				}
				opts = append(opts, ParsedOption{o, val})
				break
			}
		default:
			if posix {
				return opts, append(operands, args[i:]...), nil
			}
			operands = append(operands, a)
		}
	}
	return opts, operands, nil
}

func lookupShort(table []Option, c byte) *Option {
	for i := range table {
		if table[i].Short == c && c != 0 {
			return &table[i]
		}
	}
	return nil
}

// lookupLong finds an exact name or its only prefix match; full is the
// argument as written, for the messages.
func lookupLong(table []Option, name, full string) (*Option, error) {
	var matches []*Option
	for i := range table {
		if table[i].Long == "" { // a short option alone
			continue
		}
		if table[i].Long == name {
			return &table[i], nil
		}
		if strings.HasPrefix(table[i].Long, name) {
			matches = append(matches, &table[i])
		}
	}
	switch len(matches) {
	case 0:
		return nil, fmt.Errorf("unrecognized option '--%s'", full)
	case 1:
		return matches[0], nil
	}
	var b strings.Builder
	fmt.Fprintf(&b, "option '--%s' is ambiguous; possibilities:", full)
	for _, m := range matches {
		fmt.Fprintf(&b, " '--%s'", m.Long)
	}
	return nil, fmt.Errorf("%s", b.String())
}
