package main

import (
	"io"
	"path/filepath"
	"slices"
	"strings"

	"github.com/hashlanes/hashlanes"
	"github.com/hashlanes/hashlanes/cmd/hashlanes/internal/filesum"
	"github.com/hashlanes/hashlanes/cmd/hashlanes/internal/gnu"
	"github.com/hashlanes/hashlanes/cmd/hashlanes/internal/method"
	"github.com/hashlanes/hashlanes/cmd/hashlanes/internal/sumfile"
)

// The audit (check --audit DIR MANIFEST...): the tree under DIR against
// manifests of it, as hashdeep -a does, in one parallel pass. Each file
// under DIR is OK (listed, same digest), CHANGED (listed, another digest),
// MOVED (not listed, but with the digest of a listed file that is gone)
// or NEW; each listed file under DIR that is not there and did not move
// is MISSING. The exit status is hashdeep's: 0 when the audit passes
// (every file OK), 1 when it fails.

// auditKnown is a manifest line that names a file under the audited tree.
type auditKnown struct {
	sumfile.Line
	list string // the manifest, for messages
	line int
	used bool // found in the tree, or taken by a moved file
}

// auditKey is the key of a path: absolute and clean, so that "./d/x" in a
// manifest is the walk's "d/x".
func auditKey(name string) string {
	abs, err := filepath.Abs(name)
	if err != nil {
		return filepath.Clean(name)
	}
	return abs
}

// under reports whether key is dir or below it.
func under(key, dir string) bool {
	return key == dir || strings.HasPrefix(key, strings.TrimSuffix(dir, string(filepath.Separator))+string(filepath.Separator))
}

// runAudit audits c.auditDir against the manifests named.
func (c *command) runAudit(lists []string) {
	if err := checkDir(c.AuditDir); err != nil {
		c.errorf("%s: %s", gnu.Quote(c.AuditDir), gnu.Strerror(err))
		c.failed = true
		return
	}
	parser := sumfile.NewParser(fixedAlgs(c), true)
	dir := auditKey(c.AuditDir)
	known := map[string]*auditKnown{}
	var order []*auditKnown // the manifests' order, for the missing files
	malformed, stdin := 0, 0
	for _, list := range lists {
		display, entries, ok := c.readList(list, parser, &stdin)
		if !ok {
			c.failed = true
			continue
		}
		for _, e := range entries {
			if e.Malformed {
				malformed++
				if c.Warn {
					c.errorf("%s: %d: improperly formatted %schecksum line", gnu.Quote(display), e.Number, e.ListTag)
				}
				continue
			}
			key := auditKey(e.Name)
			if !under(key, dir) {
				continue
			}
			if k := known[key]; k != nil {
				if k.Alg != e.Alg || k.Hex != e.Hex {
					c.errorf("%s: %d: %s is listed again with another digest (line %d of %s is used)",
						gnu.Quote(display), e.Number, gnu.Quote(e.Name), k.line, gnu.Quote(k.list))
				}
				continue
			}
			k := &auditKnown{Line: e.Line, list: display, line: e.Number}
			known[key] = k
			order = append(order, k)
		}
	}
	if c.job.Ctx.Err() != nil {
		return
	}

	items := c.walk(nil, c.AuditDir)
	inTree := make(map[string]bool, len(items))
	for _, it := range items {
		if it.Err == nil {
			inTree[auditKey(it.Name)] = true
		}
	}
	// Whatever a listed file that is gone had, a moved file has: by
	// method and digest, the listed files gone, in the manifests' order.
	var methods []*method.Method
	gone := map[string][]*auditKnown{}
	for _, k := range order {
		for _, m := range k.Methods() {
			if !slices.Contains(methods, m) {
				methods = append(methods, m)
			}
		}
		if !inTree[auditKey(k.Name)] {
			gone[k.Alg.Name+" "+k.Hex] = append(gone[k.Alg.Name+" "+k.Hex], k)
		}
	}
	if len(methods) == 0 {
		methods = c.Algs
		if len(methods) == 0 {
			methods = method.OfEach(hashlanes.SHA256)
		}
	}

	var counts auditCounts
	prog := c.newProgress(items)
	defer prog.Stop()
	plan := method.PlanFor(methods)
	turns := filesum.NewStdinTurns()
	c.job.Streams(len(items), func(int) *method.Plan { return plan },
		func(i int) (io.Reader, error) {
			if it := &items[i]; it.Err != nil {
				return nil, it.Err
			}
			return c.job.Open(items[i].Name, 0, turns)
		},
		func(i int, s hashlanes.StreamSum) {
			prog.Add(s.Size)
			c.auditFile(items[i].Name, s, methods, known, gone, &counts)
		})
	if c.job.Ctx.Err() != nil {
		return
	}
	for _, k := range order {
		if !k.used && !inTree[auditKey(k.Name)] {
			counts.missing++
			c.auditLine(k.Name, "MISSING", "", k.Line, nil, nil)
		}
	}
	c.auditSummary(counts, malformed)
}

type auditCounts struct {
	ok, changed, moved, added, missing, unreadable int
}

func (n auditCounts) passed() bool {
	return n.changed+n.moved+n.added+n.missing+n.unreadable == 0
}

// auditFile classifies one file of the tree by its digests.
func (c *command) auditFile(name string, s hashlanes.StreamSum, methods []*method.Method, known map[string]*auditKnown, gone map[string][]*auditKnown, n *auditCounts) {
	if s.Err != nil {
		n.unreadable++
		c.fileError(name, s.Err)
		c.auditLine(name, "unreadable", "", sumfile.Line{}, nil, s.Err)
		return
	}
	digest := func(m *method.Method) []byte { return s.Sums[slices.Index(methods, m)] }
	if k := known[auditKey(name)]; k != nil {
		k.used = true
		if k.Verify(digest, s.Size) {
			n.ok++
			c.auditLine(name, "OK", "", k.Line, nil, nil)
		} else {
			n.changed++
			c.auditLine(name, "CHANGED", "", k.Line, digest(k.Alg), nil)
		}
		return
	}
	for _, m := range methods {
		for _, k := range gone[m.Name+" "+method.Hex(digest(m))] {
			if !k.used && k.Verify(digest, s.Size) {
				k.used = true
				n.moved++
				c.auditLine(name, "MOVED", k.Name, k.Line, nil, nil)
				return
			}
		}
	}
	n.added++
	c.auditLine(name, "NEW", "", sumfile.Line{Alg: methods[0]}, digest(methods[0]), nil)
}

// auditLine prints one finding: "NAME: STATUS" (OK only without --quiet,
// "MOVED from OLD", "FAILED open or read" as check says it), or with
// --json an object.
func (c *command) auditLine(name, status, from string, k sumfile.Line, computed []byte, err error) {
	if c.JSON {
		if status == "OK" && c.Quiet {
			return
		}
		obj := map[string]any{"status": status}
		jsonFile(obj, name)
		if k.Alg != nil {
			obj["algorithm"] = k.Alg.Name
		}
		if k.Hex != "" {
			obj["expected"] = k.Hex
			jsonMore(obj, k)
		}
		if computed != nil {
			obj["computed"] = method.Hex(computed)
		}
		if from != "" {
			obj["from"] = from
		}
		if err != nil {
			obj["error"] = gnu.Strerror(err)
		}
		c.writeJSON(obj)
		return
	}
	switch {
	case c.Status:
	case status == "unreadable":
		c.out.Write([]byte(c.checkedName(name) + ": FAILED open or read\n"))
	case status == "OK" && c.Quiet:
	case status == "MOVED":
		c.out.Write([]byte(c.checkedName(name) + ": MOVED from " + c.checkedName(from) + "\n"))
	default:
		c.out.Write([]byte(c.checkedName(name) + ": " + status + "\n"))
	}
}

// auditSummary says whether the audit passed, with the counts, on stderr
// (as the last JSON object with --json) and sets the exit status.
func (c *command) auditSummary(n auditCounts, malformed int) {
	verdict := "passed"
	if !n.passed() {
		verdict = "failed"
		c.failed = true
	}
	if c.JSON {
		c.writeJSON(map[string]any{"audit": verdict, "ok": n.ok, "changed": n.changed, "moved": n.moved,
			"new": n.added, "missing": n.missing, "unreadable": n.unreadable, "malformed": malformed})
		return
	}
	if c.Status {
		return
	}
	c.errorf("audit %s: %d OK, %d changed, %d moved, %d new, %d missing, %d unreadable", verdict, n.ok, n.changed, n.moved, n.added, n.missing, n.unreadable)
	if malformed > 0 {
		c.errorf("WARNING: %d %s improperly formatted", malformed, plural(malformed, "line is", "lines are"))
	}
}
