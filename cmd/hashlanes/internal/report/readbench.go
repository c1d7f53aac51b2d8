package report

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"

	"golang.org/x/perf/benchfmt"
)

// ReadReport reads a report in either format --compare accepts: the JSON
// of --format json, or Go benchmark lines (--format bench, or the output
// of go test -bench over internal/report, whose names are the rows' names).
func ReadReport(rd io.Reader, fileName string) (Report, error) {
	br := bufio.NewReader(rd)
	for {
		c, err := br.Peek(1)
		if err != nil {
			return Report{}, fmt.Errorf("empty report")
		}
		if c[0] == ' ' || c[0] == '\t' || c[0] == '\n' || c[0] == '\r' {
			br.ReadByte()
			continue
		}
		if c[0] == '{' {
			return ReadJSON(br)
		}
		return ReadBench(br, fileName)
	}
}

// ReadBench reads Go benchmark lines into rows, the inverse of WriteBench:
// each line is one sample of the row its name describes. Lines whose names
// are not rows (other benchmarks) are skipped; a file without any row is
// an error.
func ReadBench(rd io.Reader, fileName string) (Report, error) {
	var rep Report
	index := map[string]int{}
	br := benchfmt.NewReader(rd, fileName)
	for br.Scan() {
		res, ok := br.Result().(*benchfmt.Result)
		if !ok {
			continue // syntax errors and unit metadata: not results
		}
		row, procs, ok := parseRowName(res.Name)
		if !ok {
			continue
		}
		var ns, bps float64
		for _, v := range res.Values {
			switch v.Unit {
			case "sec/op":
				ns = v.Value * 1e9
			case "B/s":
				bps = v.Value
			case "B/op":
				row.AllocBytes = v.Value
			case "allocs/op":
				row.Allocs = v.Value
			}
		}
		if ns <= 0 {
			continue
		}
		switch {
		case row.Size > 0: // exact, where MB/s is rounded
			row.Bytes = row.Size * int64(max(row.Streams, 1))
		case bps > 0:
			row.Bytes = int64(bps*ns/1e9 + 0.5)
		}
		if rep.Machine.CPU == "" {
			rep.Machine = Machine{CPU: res.GetConfig("cpu"), GOOS: res.GetConfig("goos"), GOARCH: res.GetConfig("goarch"), Procs: procs}
		}
		name := row.Name()
		i, seen := index[name]
		if !seen {
			row.Iterations = res.Iters
			i = len(rep.Rows)
			index[name] = i
			rep.Rows = append(rep.Rows, row)
		}
		rep.Rows[i].Samples = append(rep.Rows[i].Samples, ns)
	}
	if err := br.Err(); err != nil {
		return Report{}, err
	}
	if len(rep.Rows) == 0 {
		return Report{}, fmt.Errorf("no hashlanes bench rows (Benchmark<Suite>/alg=…/impl=…) in it")
	}
	return rep, nil
}

// parseRowName reads what Row.Name writes, with go test's -GOMAXPROCS
// suffix, if any.
func parseRowName(n benchfmt.Name) (row Row, procs int, ok bool) {
	base, parts := n.Parts()
	suite := strings.TrimPrefix(string(base), "Benchmark") // benchfmt drops it
	if suite == "" {
		return Row{}, 0, false
	}
	row.Suite = strings.ToLower(suite[:1]) + suite[1:]
	if !slices.Contains(Suites, row.Suite) {
		return Row{}, 0, false
	}
	procs = 1
	key := ""
	for _, p := range parts {
		if n, ok := bytes.CutPrefix(p, []byte("-")); ok {
			procs, _ = strconv.Atoi(string(n))
			continue
		}
		k, val, ok := strings.Cut(strings.TrimPrefix(string(p), "/"), "=")
		if !ok {
			// A library's path as impl ("zeebo/xxh3") reads as
			// impl=zeebo followed by a positional part.
			if key != "impl" {
				return Row{}, 0, false
			}
			row.Impl += string(p)
			continue
		}
		key = k
		var err error
		switch key {
		case "alg":
			row.Alg = val
		case "impl":
			row.Impl = val
		case "streams":
			row.Streams, err = strconv.Atoi(val)
		case "msgs":
			row.Msgs, err = strconv.Atoi(val)
		case "size":
			row.Size, err = ParseSize(val)
		default:
			return Row{}, 0, false
		}
		if err != nil {
			return Row{}, 0, false
		}
	}
	if row.Alg == "" || row.Impl == "" || row.Name() != "Benchmark"+suite+strings.Join(nonProcs(parts), "") {
		return Row{}, 0, false
	}
	return row, procs, true
}

func nonProcs(parts [][]byte) []string {
	var s []string
	for _, p := range parts {
		if !bytes.HasPrefix(p, []byte("-")) {
			s = append(s, string(p))
		}
	}
	return s
}
