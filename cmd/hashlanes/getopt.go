package main

import (
	"fmt"
	"os"
	"strings"
)

// option is one entry of a command's option table, as in getopt_long: a
// long name, an optional short letter, and whether it takes an argument.
type option struct {
	long  string
	short byte
	arg   bool
}

// parsedOption is an option as met on the command line.
type parsedOption struct {
	opt *option
	val string
}

// getopt parses args the way glibc's getopt_long does for the coreutils:
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
func getopt(table []option, args []string) (opts []parsedOption, operands []string, err error) {
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
			case hasVal && !o.arg:
				return opts, operands, fmt.Errorf("option '--%s' doesn't allow an argument", o.long)
			case o.arg && !hasVal:
				if i+1 == len(args) {
					return opts, operands, fmt.Errorf("option '--%s' requires an argument", o.long)
				}
				i++
				val = args[i]
			}
			opts = append(opts, parsedOption{o, val})
		case len(a) > 1 && a[0] == '-':
			for j := 1; j < len(a); j++ {
				o := lookupShort(table, a[j])
				if o == nil {
					return opts, operands, fmt.Errorf("invalid option -- '%c'", a[j])
				}
				if !o.arg {
					opts = append(opts, parsedOption{o, ""})
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
				opts = append(opts, parsedOption{o, val})
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

func lookupShort(table []option, c byte) *option {
	for i := range table {
		if table[i].short == c && c != 0 {
			return &table[i]
		}
	}
	return nil
}

// lookupLong finds an exact name or its only prefix match; full is the
// argument as written, for the messages.
func lookupLong(table []option, name, full string) (*option, error) {
	var matches []*option
	for i := range table {
		if table[i].long == "" { // a short option alone
			continue
		}
		if table[i].long == name {
			return &table[i], nil
		}
		if strings.HasPrefix(table[i].long, name) {
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
		fmt.Fprintf(&b, " '--%s'", m.long)
	}
	return nil, fmt.Errorf("%s", b.String())
}
