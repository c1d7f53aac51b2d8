package main

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"encoding/json"
	"io"
	"io/fs"
	"os"
	"runtime"
	"strings"
	"unicode/utf8"

	"github.com/hashlanes/hashlanes"
	"github.com/hashlanes/hashlanes/internal/blake3tree"
	"github.com/hashlanes/hashlanes/internal/cksum"
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
	if len(c.algs) == 0 {
		c.algs = methodsOf(hashlanes.SHA256)
	}
	if c.fam != nil && c.fam.debug {
		c.errorf("%s", c.fam.debugLine(c.algs[0]))
	}
	var items []item
	var err error
	if c.hasFilesFrom {
		operands, err = c.readFilesFrom()
		if err != nil {
			c.fileError(c.filesFrom, err)
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
		if c.recursive {
			items = c.walk(items, name)
			continue
		}
		items = append(items, item{name: name, size: -1})
	}
	c.hashItems(items)
}

func (c *command) readFilesFrom() ([]string, error) {
	var r io.Reader = c.stdin
	if c.filesFrom != "-" {
		f, err := os.Open(c.filesFrom)
		if err != nil {
			return nil, err
		}
		defer f.Close()
		r = f
	}
	sep := byte('\n')
	if c.null {
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

// walk appends the regular files under root in sorted order (each
// directory's entries by name). Symbolic links met inside are skipped
// unless --follow, as are devices, FIFOs and sockets; a root that is not a
// directory is hashed as an operand would be.
func (c *command) walk(items []item, root string) []item {
	visited := map[fileID]bool{}
	var walkDir func(dir string)
	walkDir = func(dir string) {
		entries, err := readDirLong(dir)
		if err != nil {
			items = append(items, item{name: dir, err: err})
		}
		for _, e := range entries {
			path := dir + "/" + e.Name() // as find prints it: "./x", "dir//x" stays "dir/x"
			if strings.HasSuffix(dir, "/") {
				path = dir + e.Name()
			}
			typ := e.Type()
			if typ&fs.ModeSymlink != 0 {
				if !c.follow {
					continue
				}
				fi, err := statLong(path)
				if err != nil {
					items = append(items, item{name: path, err: err})
					continue
				}
				typ = fi.Mode().Type()
			}
			switch {
			case typ.IsDir():
				if id, ok := idOf(path); ok {
					if visited[id] {
						continue // a link back up the tree
					}
					visited[id] = true
				}
				walkDir(path)
			case typ.IsRegular():
				size := int64(-1)
				if c.wantSizes {
					if fi, err := statLong(path); err == nil {
						size = fi.Size()
					}
				}
				items = append(items, item{name: path, size: size})
			}
		}
	}
	fi, err := statLong(root)
	if err != nil || !fi.IsDir() {
		return append(items, item{name: root, size: -1})
	}
	if id, ok := idOf(root); ok {
		visited[id] = true
	}
	walkDir(root)
	return items
}

// hashItems runs the items through the engine and prints each result in
// order as it comes.
func (c *command) hashItems(items []item) {
	turns := newStdinTurns()
	prog := c.newProgress(items)
	defer prog.stop()
	plan := planFor(c.algs)
	if !c.splitsLargeFiles() {
		c.hashBatch(items, plan, prog, turns)
		return
	}
	start := 0
	for i := range items {
		it := &items[i]
		if it.err != nil || it.name == "-" {
			continue
		}
		if fi, err := statLong(it.name); err != nil || !fi.Mode().IsRegular() || fi.Size() < c.splitMin() {
			continue
		}
		c.hashBatch(items[start:i], plan, prog, turns)
		if c.ctx.Err() != nil {
			return
		}
		c.hashSplit(it, plan, prog, turns)
		start = i + 1
	}
	c.hashBatch(items[start:], plan, prog, turns)
}

// hashBatch hashes items through SumStreams, in lanes where the methods
// have them, and prints each result in order.
func (c *command) hashBatch(items []item, plan *streamPlan, prog *progress, turns *stdinTurns) {
	if len(items) == 0 {
		return
	}
	c.sumStreams(len(items), func(int) *streamPlan { return plan },
		func(i int) (io.Reader, error) {
			it := &items[i]
			if it.err != nil {
				return nil, it.err
			}
			return c.openStream(it.name, it.stdinTurn, turns)
		},
		func(i int, s hashlanes.StreamSum) {
			prog.add(s.Size)
			name := items[i].name
			items[i] = item{} // done with it: let the name go
			c.printResult(name, s)
		})
}

func (c *command) printResult(name string, s hashlanes.StreamSum) {
	if s.Err != nil {
		if c.json {
			c.printJSON(name, s)
			c.failed = true
			return
		}
		c.fileError(name, s.Err)
		return
	}
	c.printSum(name, s)
}

// splitMin is the size from which cksum's CRC of one regular file is
// computed in ranges on every core: one core copying from the page cache
// bounds it (a GiB: 190 ms on one core, 117 on two, Emerald Rapids), and
// the CRCs of the ranges combine. A variable for the tests.
var splitMin int64 = 32 << 20

// splitMin is the size from which the method's large files are split: a
// BLAKE3 tree from 1 MiB (4 leaves), the CRC from splitMin.
func (c *command) splitMin() int64 {
	if c.algs[0].name == "blake3" {
		return min(splitMin, splitMinB3)
	}
	return splitMin
}

// splitsLargeFiles: the one method can be hashed in ranges (cksum's CRC,
// on more than one core) or in leaves of its tree (BLAKE3, whose kernels
// and mapped reads win on one core too).
func (c *command) splitsLargeFiles() bool {
	if len(c.algs) != 1 {
		return false
	}
	switch c.algs[0].name {
	case "crc":
		return c.fam != nil && runtime.GOMAXPROCS(0) > 1
	case "blake3":
		return true
	}
	return false
}

// hashSplit hashes one large regular file in ranges or leaves on every
// core and prints its result; if it is no longer a regular file when
// opened, it goes through SumStreams after all.
func (c *command) hashSplit(it *item, plan *streamPlan, prog *progress, turns *stdinTurns) {
	if c.algs[0].name == "blake3" {
		c.hashTree(it, prog)
		return
	}
	r, err := c.openStream(it.name, 0, turns)
	if err != nil {
		c.printResult(it.name, hashlanes.StreamSum{Err: err})
		return
	}
	ra, size, ok := rangesOf(r)
	if !ok {
		r.(io.Closer).Close()
		c.hashBatch([]item{*it}, plan, prog, turns)
		return
	}
	crc, err := cksum.SumReaderAt(c.ctx, ra, size, runtime.GOMAXPROCS(0), streamRangeBuffer)
	if cerr := r.(io.Closer).Close(); err == nil {
		err = cerr
	}
	prog.add(size)
	s := hashlanes.StreamSum{Size: size, Err: err}
	if err == nil {
		s.Sums = [][]byte{binary.BigEndian.AppendUint32(nil, crc)}
	}
	c.printResult(it.name, s)
}

// hashTree is a large file's BLAKE3 through its chunk tree, the leaves on
// every core (internal/blake3tree).
func (c *command) hashTree(it *item, prog *progress) {
	s := hashlanes.StreamSum{}
	f, err := os.Open(it.name)
	if err == nil {
		var fi os.FileInfo
		if fi, err = f.Stat(); err == nil {
			s.Size = fi.Size()
			var sum []byte
			sum, err = blake3tree.SumFile(c.ctx, f, fi.Size(), blake3tree.Hash(), 32, runtime.GOMAXPROCS(0))
			s.Sums = [][]byte{sum}
		}
		f.Close()
	}
	prog.add(s.Size)
	if err != nil {
		s = hashlanes.StreamSum{Err: err}
	}
	c.printResult(it.name, s)
}

// streamRangeBuffer is the read buffer of each range of a split file.
const streamRangeBuffer = 256 << 10

func (c *command) jobOptions() []hashlanes.StreamOption {
	if c.jobs > 0 {
		return []hashlanes.StreamOption{hashlanes.WithJobs(c.jobs)}
	}
	return nil
}

// printSum writes one result line (or one per algorithm) the GNU way:
// "hex  name", "hex *name" (binary), "TAG (name) = hex" (--tag, or several
// algorithms); a name with a backslash, LF or CR is escaped and the line
// starts with a backslash, except with --zero.
func (c *command) printSum(name string, s hashlanes.StreamSum) {
	if c.json {
		c.printJSON(name, s)
		return
	}
	delim := byte('\n')
	if c.zero {
		delim = 0
	}
	if c.fam != nil && (c.algs[0].sumStyle != digestLine || c.fam.raw) {
		// The CRCs and the old sums print the name as it is, as GNU's do.
		c.out.Write(c.fam.sumLine(nil, c.algs[0], name, s.Size, s.Sums[0], delim))
		return
	}
	escape := !c.zero && strings.ContainsAny(name, "\\\n\r")
	if escape {
		name = escapeName(name)
	}
	var b bytes.Buffer
	for k, a := range c.algs {
		if escape {
			b.WriteByte('\\')
		}
		if c.tag || len(c.algs) > 1 {
			b.WriteString(a.tag)
			b.WriteString(" (")
			b.WriteString(name)
			b.WriteString(") = ")
			b.WriteString(c.fam.digestText(s.Sums[k]))
		} else {
			b.WriteString(c.fam.digestText(s.Sums[k]))
			if c.binary == 1 {
				b.WriteString(" *")
			} else {
				b.WriteString("  ")
			}
			b.WriteString(name)
		}
		b.WriteByte(delim)
	}
	c.out.Write(b.Bytes())
}

// escapeName escapes backslash, LF and CR as the coreutils do.
func escapeName(name string) string {
	return strings.NewReplacer(`\`, `\\`, "\n", `\n`, "\r", `\r`).Replace(name)
}

// printJSON writes one object per file: its name, size and digests (keyed
// by algorithm name), or its error. A name that is not UTF-8 also comes
// as bytes (base64), so it can be recovered exactly.
func (c *command) printJSON(name string, s hashlanes.StreamSum) {
	obj := map[string]any{}
	jsonFile(obj, name)
	if s.Err != nil {
		obj["error"] = strerror(s.Err)
	} else {
		obj["size"] = s.Size
		for k, a := range c.algs {
			obj[a.name] = hexOf(s.Sums[k])
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
