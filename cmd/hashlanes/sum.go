package main

import (
	"bufio"
	"encoding/json"
	"io"
	"os"
	"runtime"
	"strings"
	"unicode/utf8"

	"github.com/hashlanes/hashlanes"
	"github.com/hashlanes/hashlanes/cmd/hashlanes/internal/files"
	"github.com/hashlanes/hashlanes/cmd/hashlanes/internal/gnu"
	"github.com/hashlanes/hashlanes/cmd/hashlanes/internal/method"
	"github.com/hashlanes/hashlanes/cmd/hashlanes/internal/sumfile"
)

// item is one thing to hash: a file name, or a problem met while listing
// names (an unreadable directory), reported in its place.
type item struct {
	name      string
	err       error
	stdinTurn int // for "-": its place among the "-" operands
	size      int64
}

// runSum hashes every operand (or listed file) and prints one result per
// item in order, errors in their place.
func (c *command) runSum(operands []string) {
	if len(c.Algs) == 0 {
		c.Algs = method.OfEach(hashlanes.SHA256)
	}
	if c.Fam != nil && c.Fam.Debug {
		c.errorf("%s", c.Fam.DebugLine(c.Algs[0]))
	}
	var items []item
	var err error
	if c.HasFilesFrom {
		operands, err = c.readFilesFrom()
		if err != nil {
			c.fileError(c.FilesFrom, err)
			return
		}
	}
	c.wantSizes = c.progressWanted()
	turns := 0
	for _, name := range operands {
		if name == "-" {
			items = append(items, item{name: name, stdinTurn: turns})
			turns++
			continue
		}
		if c.Recursive {
			items = c.walk(items, name)
			continue
		}
		items = append(items, item{name: name, size: -1})
	}
	c.hashItems(items)
}

func (c *command) readFilesFrom() ([]string, error) {
	var r io.Reader = c.stdin
	if c.FilesFrom != "-" {
		f, err := os.Open(c.FilesFrom)
		if err != nil {
			return nil, err
		}
		defer f.Close()
		r = f
	}
	sep := byte('\n')
	if c.Null {
		sep = 0
	}
	var names []string
	br := bufio.NewReader(r)
	for {
		line, err := br.ReadString(sep)
		line = strings.TrimSuffix(line, string(sep))
		if line != "" {
			names = append(names, line)
		}
		if err == io.EOF {
			return names, nil
		}
		if err != nil {
			return nil, err
		}
	}
}

// walk appends the regular files under root, and the problems met on
// the way, in order (files.Walk).
func (c *command) walk(items []item, root string) []item {
	files.Walk(root, c.Follow, c.wantSizes, func(path string, size int64, err error) {
		items = append(items, item{name: path, size: size, err: err})
	})
	return items
}

// hashItems hashes the items and prints each result in order as it comes.
func (c *command) hashItems(items []item) {
	prog := c.newProgress(items)
	defer prog.stop()
	c.digestItems(items, func(i int, s hashlanes.StreamSum) {
		prog.add(s.Size)
		name := items[i].name
		items[i] = item{} // done with it: let the name go
		c.printResult(name, s)
	})
}

// digestItems hashes items with c.algs and hands each result to done, in
// order: regular files large enough for the one method's splitter on
// every core, the rest through SumStreams, in lanes where the methods
// have them.
func (c *command) digestItems(items []item, done func(i int, s hashlanes.StreamSum)) {
	turns := newStdinTurns()
	plan := method.PlanFor(c.Algs)
	start := 0
	if sp := c.splitter(); sp != nil {
		for i := range items {
			it := &items[i]
			if it.err != nil || it.name == "-" {
				continue
			}
			if fi, err := files.Stat(it.name); err != nil || !fi.Mode().IsRegular() || fi.Size() < splitMinOf(sp) {
				continue
			}
			c.hashBatch(items, start, i, plan, turns, done)
			if c.ctx.Err() != nil {
				return
			}
			c.hashSplit(items, i, sp, plan, turns, done)
			start = i + 1
		}
	}
	c.hashBatch(items, start, len(items), plan, turns, done)
}

// hashBatch hashes items[first:end] through SumStreams.
func (c *command) hashBatch(items []item, first, end int, plan *method.Plan, turns *stdinTurns, done func(i int, s hashlanes.StreamSum)) {
	if first == end {
		return
	}
	c.sumStreams(end-first, func(int) *method.Plan { return plan },
		func(i int) (io.Reader, error) {
			it := &items[first+i]
			if it.err != nil {
				return nil, it.err
			}
			return c.openStream(it.name, it.stdinTurn, turns)
		},
		func(i int, s hashlanes.StreamSum) { done(first+i, s) })
}

func (c *command) printResult(name string, s hashlanes.StreamSum) {
	if s.Err != nil {
		if c.JSON {
			c.printJSON(name, s)
			c.failed = true
			return
		}
		c.fileError(name, s.Err)
		return
	}
	c.printSum(name, s)
}

// splitMinTest, from 0 on, replaces every splitter's size for the tests.
var splitMinTest int64 = -1

func splitMinOf(sp *method.Splitter) int64 {
	if splitMinTest >= 0 {
		return splitMinTest
	}
	return sp.Min
}

// splitter is the one method's splitter, where it has one and it pays on
// the cores there are.
func (c *command) splitter() *method.Splitter {
	if len(c.Algs) != 1 {
		return nil
	}
	sp := c.Algs[0].Split
	if sp == nil || sp.MultiCore && c.cores() < 2 {
		return nil
	}
	return sp
}

// cores is how many cores a split file is hashed on: b3sum's
// --num-threads, or GOMAXPROCS.
func (c *command) cores() int {
	if c.threads > 0 {
		return c.threads
	}
	return runtime.GOMAXPROCS(0)
}

// hashSplit hashes items[i], a large regular file, with its method's
// splitter; if it is no longer a regular file when opened, it goes
// through SumStreams after all.
func (c *command) hashSplit(items []item, i int, sp *method.Splitter, plan *method.Plan, turns *stdinTurns, done func(i int, s hashlanes.StreamSum)) {
	r, err := c.openStream(items[i].name, 0, turns)
	if err != nil {
		done(i, hashlanes.StreamSum{Err: err})
		return
	}
	f, size, ok := files.Ranges(r)
	if !ok {
		r.(io.Closer).Close()
		c.hashBatch(items, i, i+1, plan, turns, done)
		return
	}
	sum, err := sp.Sum(method.SplitRun{Ctx: c.ctx, Cores: c.cores(), NoMmap: c.noMmap}, f, size)
	if cerr := r.(io.Closer).Close(); err == nil {
		err = cerr
	}
	s := hashlanes.StreamSum{Size: size, Err: err}
	if err == nil {
		s.Sums = [][]byte{sum}
	}
	done(i, s)
}

func (c *command) jobOptions() []hashlanes.StreamOption {
	if c.Jobs > 0 {
		return []hashlanes.StreamOption{hashlanes.WithJobs(c.Jobs)}
	}
	return nil
}

// printSum writes one result line (or one per algorithm) the GNU way:
// "hex  name", "hex *name" (binary), "TAG (name) = hex" (--tag, or several
// algorithms); a name with a backslash, LF or CR is escaped and the line
// starts with a backslash, except with --zero.
func (c *command) printSum(name string, s hashlanes.StreamSum) {
	if c.JSON {
		c.printJSON(name, s)
		return
	}
	delim := byte('\n')
	if c.Zero {
		delim = 0
	}
	if c.Fam != nil && c.Fam.Raw {
		c.out.Write(s.Sums[0]) // the value alone, big-endian
		return
	}
	if c.Fam != nil && c.Algs[0].Style != method.DigestLine {
		c.out.Write(sumfile.AppendSumLine(nil, c.Algs[0], name, s.Size, s.Sums[0], delim, c.Fam.Operands))
		return
	}
	c.out.Write(sumfile.AppendDigestLines(nil, name, c.Algs, s.Sums, sumfile.Format{
		Tagged: c.Tag || len(c.Algs) > 1, Binary: c.Binary == 1, Zero: c.Zero, Base64: c.Fam != nil && c.Fam.Base64}))
}

// printJSON writes one object per file: its name, size and digests (keyed
// by algorithm name), or its error. A name that is not UTF-8 also comes
// as bytes (base64), so it can be recovered exactly.
func (c *command) printJSON(name string, s hashlanes.StreamSum) {
	obj := map[string]any{}
	jsonFile(obj, name)
	if s.Err != nil {
		obj["error"] = gnu.Strerror(s.Err)
	} else {
		obj["size"] = s.Size
		for k, a := range c.Algs {
			obj[a.Name] = method.Hex(s.Sums[k])
		}
	}
	c.writeJSON(obj)
}

// jsonFile sets a JSON object's file name, and for a name that is not
// UTF-8 its bytes too (base64), so that it can be recovered exactly.
func jsonFile(obj map[string]any, name string) {
	obj["file"] = name
	if !utf8.ValidString(name) {
		obj["file_bytes"] = []byte(name)
	}
}

// writeJSON writes obj as one line of output.
func (c *command) writeJSON(obj map[string]any) {
	line, err := json.Marshal(obj)
	if err != nil {
		panic(err) // only strings, numbers and bytes: cannot fail
	}
	c.out.Write(append(line, '\n'))
}
