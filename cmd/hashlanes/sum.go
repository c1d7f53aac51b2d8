package main

import (
	"bufio"
	"encoding/json"
	"io"
	"os"
	"strings"
	"unicode/utf8"

	"github.com/hashlanes/hashlanes"
	"github.com/hashlanes/hashlanes/cmd/hashlanes/internal/files"
	"github.com/hashlanes/hashlanes/cmd/hashlanes/internal/filesum"
	"github.com/hashlanes/hashlanes/cmd/hashlanes/internal/gnu"
	"github.com/hashlanes/hashlanes/cmd/hashlanes/internal/method"
	"github.com/hashlanes/hashlanes/cmd/hashlanes/internal/progress"
	"github.com/hashlanes/hashlanes/cmd/hashlanes/internal/sumfile"
)

// runSum hashes every operand (or listed file) and prints one result per
// item in order, errors in their place.
func (c *command) runSum(operands []string) {
	if len(c.Algs) == 0 {
		c.Algs = method.OfEach(hashlanes.SHA256)
	}
	if c.Fam != nil && c.Fam.Debug {
		c.errorf("%s", c.Fam.DebugLine(c.Algs[0]))
	}
	var items []filesum.Item
	var err error
	if c.HasFilesFrom {
		operands, err = c.readFilesFrom()
		if err != nil {
			c.fileError(c.FilesFrom, err)
			return
		}
	}
	c.wantSizes = progress.Wanted(c.Progress, c.stderr)
	turns := 0
	for _, name := range operands {
		if name == "-" {
			items = append(items, filesum.Item{Name: name, StdinTurn: turns})
			turns++
			continue
		}
		if c.Recursive {
			items = c.walk(items, name)
			continue
		}
		items = append(items, filesum.Item{Name: name, Size: -1})
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
func (c *command) walk(items []filesum.Item, root string) []filesum.Item {
	files.Walk(root, c.Follow, c.wantSizes, func(path string, size int64, err error) {
		items = append(items, filesum.Item{Name: path, Size: size, Err: err})
	})
	return items
}

// hashItems hashes the items and prints each result in order as it comes.
func (c *command) hashItems(items []filesum.Item) {
	prog := c.newProgress(items)
	defer prog.Stop()
	c.job.Items(c.Algs, items, func(i int, s hashlanes.StreamSum) {
		prog.Add(s.Size)
		name := items[i].Name
		items[i] = filesum.Item{} // done with it: let the name go
		c.printResult(name, s)
	})
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
