package main

import (
	"errors"
	"io"
	"maps"
	"os"
	"slices"
	"strings"

	"github.com/hashlanes/hashlanes"
	"github.com/hashlanes/hashlanes/cmd/hashlanes/internal/filesum"
	"github.com/hashlanes/hashlanes/cmd/hashlanes/internal/gnu"
	"github.com/hashlanes/hashlanes/cmd/hashlanes/internal/method"
	"github.com/hashlanes/hashlanes/cmd/hashlanes/internal/sumfile"
)

// readList reads and parses a checksum list (standard input for "-"): its
// name for messages, and its lines; false, with the error reported, if it
// cannot be read.
func (c *command) readList(list string, parser *sumfile.Parser, stdinCount *int) (string, []checkEntry, bool) {
	displayName := list
	var data []byte
	var err error
	fromStdin := list == "-"
	if fromStdin {
		displayName = "standard input"
		data, err = io.ReadAll(c.stdin)
	} else {
		var f *os.File
		f, err = os.Open(list)
		if err != nil {
			c.fileError(list, err)
			return displayName, nil, false
		}
		data, err = io.ReadAll(f)
		f.Close()
	}
	if err != nil {
		c.errorf("%s: read error", gnu.Quote(displayName))
		return displayName, nil, false
	}

	lines := parser.List(data, fromStdin)
	entries := make([]checkEntry, len(lines))
	for i, e := range lines {
		entries[i].Entry = e
		if !e.Malformed && e.Name == "-" {
			entries[i].stdinTurn = *stdinCount
			*stdinCount++
		}
	}
	return displayName, entries, true
}

// checkEntry is one line of a list as it will be reported.
type checkEntry struct {
	sumfile.Entry
	stdinTurn int
}

var errMalformed = errors.New("improperly formatted line")

// runCheck verifies every checksum list named (standard input for "-").
func (c *command) runCheck(lists []string) {
	parser := sumfile.NewParser(fixedAlgs(c), !c.DropIn)
	if c.Fam != nil {
		parser.GNU = &sumfile.GNULines{Cksum: c.Fam.Cksum, Specified: c.Fam.Specified, Alg: c.Fam.Alg}
	}
	turns := 0
	for _, list := range lists {
		if c.job.Ctx.Err() != nil {
			return
		}
		if !c.checkList(list, parser, &turns) {
			c.failed = true
		}
	}
}

func fixedAlgs(c *command) []*method.Method {
	if c.AlgFixed {
		return c.Algs
	}
	return nil
}

// checkList verifies one list; it reports whether everything in it passed.
func (c *command) checkList(list string, parser *sumfile.Parser, stdinCount *int) bool {
	displayName, entries, ok := c.readList(list, parser, stdinCount)
	if !ok {
		return false
	}

	turns := filesum.NewStdinTurns()
	var malformed, unreadable, mismatched, matched int
	guessedWrong := map[*method.Method]int{} // mismatches of lines whose algorithm was guessed
	guessedRight := map[*method.Method]int{} // and matches: the guess held for the list
	properlyFormatted := false
	plans := make([]*method.Plan, len(entries))
	byMethods := map[string]*method.Plan{}
	none := method.PlanFor(nil)
	for i, e := range entries {
		plans[i] = none
		if e.Malformed {
			continue
		}
		ms := e.Methods()
		key := method.Key(ms)
		if byMethods[key] == nil {
			byMethods[key] = method.PlanFor(ms)
		}
		plans[i] = byMethods[key]
	}
	planOf := func(i int) *method.Plan { return plans[i] }
	c.job.Streams(len(entries), planOf,
		func(i int) (io.Reader, error) {
			e := &entries[i]
			if e.Malformed {
				return nil, errMalformed
			}
			return c.job.Open(e.Name, e.stdinTurn, turns)
		},
		func(i int, s hashlanes.StreamSum) {
			e := entries[i]
			if e.Malformed {
				malformed++
				c.checkJSON(displayName, e, "malformed", nil, nil)
				if c.Warn {
					c.errorf("%s: %d: improperly formatted %schecksum line", gnu.Quote(displayName), e.Number, e.ListTag)
				}
				return
			}
			properlyFormatted = true
			if s.Err != nil {
				if c.IgnoreMissing && errors.Is(s.Err, os.ErrNotExist) && isOpenError(s.Err) {
					return
				}
				c.fileError(e.Name, s.Err)
				unreadable++
				switch {
				case c.JSON:
					c.checkJSON(displayName, e, "unreadable", nil, s.Err)
				case !c.Status:
					c.out.Write([]byte(c.checkedName(e.Name) + ": FAILED open or read\n"))
				}
				return
			}
			ms := e.Methods()
			sumOf := func(m *method.Method) []byte { return s.Sums[slices.Index(ms, m)] }
			ok := e.Verify(sumOf, s.Size)
			if ok {
				matched++
				if e.Guessed {
					guessedRight[e.Alg]++
				}
			} else {
				mismatched++
				if e.Guessed {
					guessedWrong[e.Alg]++
				}
			}
			switch {
			case c.JSON:
				if status := map[bool]string{true: "OK", false: "FAILED"}[ok]; !ok || !c.Quiet {
					c.checkJSON(displayName, e, status, sumOf(e.Alg), nil)
				}
			case c.Status:
			case !ok:
				c.out.Write([]byte(c.checkedName(e.Name) + ": FAILED\n"))
			case !c.Quiet:
				c.out.Write([]byte(c.checkedName(e.Name) + ": OK\n"))
			}
		})
	if c.job.Ctx.Err() != nil {
		return false
	}

	if !properlyFormatted {
		c.errorf("%s: no properly formatted checksum lines found", gnu.Quote(displayName))
		return false
	}
	if !c.Status {
		if malformed > 0 {
			c.errorf("WARNING: %d %s improperly formatted", malformed, plural(malformed, "line is", "lines are"))
		}
		if unreadable > 0 {
			c.errorf("WARNING: %d %s could not be read", unreadable, plural(unreadable, "listed file", "listed files"))
		}
		if mismatched > 0 {
			c.errorf("WARNING: %d computed %s did NOT match", mismatched, plural(mismatched, "checksum", "checksums"))
		}
		for _, a := range slices.SortedFunc(maps.Keys(guessedWrong), func(a, b *method.Method) int { return a.Size - b.Size }) {
			if guessedRight[a] == 0 { // a line that verified shows the list's algorithm
				c.guessNote(a, guessedWrong[a])
			}
		}
		if c.IgnoreMissing && matched+mismatched == 0 {
			c.errorf("%s: no file was verified", gnu.Quote(displayName))
		}
	}
	return mismatched == 0 && unreadable == 0 &&
		(!c.Strict || malformed == 0) &&
		(!c.IgnoreMissing || matched+mismatched > 0)
}

// sameLength are, for each algorithm that detection guesses from a
// digest's length, the other methods whose digests have that length too:
// an untagged list of theirs reads as the guess.
var sameLength = map[hashlanes.Algorithm][]string{
	hashlanes.MD5:    {"blake2b-128"},
	hashlanes.SHA1:   {"blake2b-160"},
	hashlanes.SHA224: {"sha3-224", "sha512-224", "blake2b-224"},
	hashlanes.SHA256: {"blake3", "sha3-256", "sha512-256", "blake2s", "blake2b-256", "sm3"},
	hashlanes.SHA384: {"sha3-384", "blake2b-384"},
	hashlanes.SHA512: {"sha3-512", "blake2b"},
}

// guessNote explains mismatches of untagged lines whose algorithm was
// guessed from the digest's length: a list that b3sum or another tool
// made with digests of that length reads as the guess and fails, every
// file intact.
func (c *command) guessNote(a *method.Method, n int) {
	others := sameLength[a.Alg]
	if len(others) == 0 {
		return
	}
	var opts []string
	for _, o := range others {
		opts = append(opts, "-a "+o)
	}
	c.errorf("note: %d untagged %s of %d hex digits did not match as %s, the usual algorithm of that length; if the list was made with another, name it: %s",
		n, plural(n, "line", "lines"), 2*a.Size, a.Tag, strings.Join(opts, ", "))
}

// checkJSON writes one object for a line of list, with --json: where it
// is (list, line), what it names (file, algorithm, expected digest) and
// what came of it: status OK, FAILED (with the digest computed),
// unreadable (with the error) or malformed.
func (c *command) checkJSON(list string, e checkEntry, status string, sum []byte, err error) {
	if !c.JSON {
		return
	}
	obj := map[string]any{"list": list, "line": e.Number, "status": status}
	if status != "malformed" {
		jsonFile(obj, e.Name)
		obj["algorithm"] = e.Alg.Name
		obj["expected"] = e.Hex
		jsonMore(obj, e.Line)
	}
	if status == "FAILED" {
		obj["computed"] = method.Hex(sum)
	}
	if err != nil {
		obj["error"] = gnu.Strerror(err)
	}
	c.writeJSON(obj)
}

// jsonMore adds what a line of another tool gives beside its first
// digest: every digest, by the algorithms that may have made it, and the
// size.
func jsonMore(obj map[string]any, l sumfile.Line) {
	if len(l.Digests) > 1 {
		var ds []map[string]any
		for _, d := range l.Digests {
			var names []string
			for _, m := range d.Algs {
				names = append(names, m.Name)
			}
			ds = append(ds, map[string]any{"algorithms": names, "expected": d.Hex})
		}
		obj["digests"] = ds
	}
	if l.Sized {
		obj["expected_size"] = l.Size
	}
}

// checkedName is a name as --check prints it: escaped, after a leading
// backslash, if it holds a backslash, LF or CR (coreutils 9.4 and later).
func (c *command) checkedName(name string) string {
	if !c.Status && strings.ContainsAny(name, "\\\n\r") {
		return `\` + sumfile.Escape(name)
	}
	return name
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

func isOpenError(err error) bool {
	var pe *os.PathError
	return errors.As(err, &pe) && pe.Op == "open"
}
