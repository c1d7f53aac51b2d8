package report

import (
	"bytes"
	"flag"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/hashlanes/hashlanes/internal/workload"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

// sample is a fixed report with a row of every suite, so that the formats
// can be pinned without measuring anything.
func sample() Report {
	return Report{
		Machine: Machine{CPU: "Test CPU", Features: []string{"AVX2", "SHA"}, Tier: "avx2", Tuning: "zen3", GOOS: "linux", GOARCH: "amd64", Procs: 2, Go: "go1.26",
			Kernels: map[string]string{"md5": "avx2x16 (16 lanes) + amd64 (single stream)", "sha512": "stdlib"}},
		Started: "2026-11-21T00:00:00Z",
		Rows: []Row{
			{Suite: "algos", Alg: "md5", Impl: "stdlib", Size: 1024, Bytes: 1024, Samples: []float64{1300, 1310, 1290}, Iterations: 1000},
			{Suite: "algos", Alg: "md5", Impl: "hashlanes", Size: 1024, Bytes: 1024, Samples: []float64{1280, 1500, 1281}, Iterations: 1000},
			{Suite: "algos", Alg: "sha256", Impl: "stdlib", Size: 1 << 20, Bytes: 1 << 20, Samples: []float64{580000, 585000, 590000}, Iterations: 10},
			{Suite: "algos", Alg: "xxh3", Impl: "zeebo/xxh3", Size: 1 << 20, Bytes: 1 << 20, Samples: []float64{20000, 20000, 20000}, Iterations: 10},
			{Suite: "lanes", Alg: "md5", Impl: "stdlib", Streams: 16, Size: 1 << 20, Bytes: 16 << 20, Samples: []float64{22e6, 22e6, 22e6}, Iterations: 2},
			{Suite: "lanes", Alg: "md5", Impl: "hashlanes", Streams: 16, Size: 1 << 20, Bytes: 16 << 20, Samples: []float64{2e6, 2e6, 2.1e6}, Iterations: 2},
			{Suite: "small", Alg: "md5", Impl: "loop", Msgs: 10000, Bytes: 570000, Samples: []float64{1.1e6, 1.1e6, 1.1e6}, Iterations: 3},
			{Suite: "small", Alg: "md5", Impl: "summany", Msgs: 10000, Bytes: 570000, Samples: []float64{4e5, 4e5, 4e5}, Iterations: 3},
			{Suite: "files", Alg: "sha256", Impl: "readall", Size: 16 << 20, Bytes: 16 << 20, Samples: []float64{11e6, 11e6, 11e6}, Iterations: 1, AllocBytes: 16 << 20, Allocs: 7},
		},
	}
}

func TestFormatsGolden(t *testing.T) {
	for name, write := range map[string]func(*bytes.Buffer, Report) error{
		"table.txt":   func(b *bytes.Buffer, r Report) error { return WriteTable(b, r) },
		"bench.txt":   func(b *bytes.Buffer, r Report) error { return WriteBench(b, r) },
		"report.json": func(b *bytes.Buffer, r Report) error { return WriteJSON(b, r) },
		"table.md":    func(b *bytes.Buffer, r Report) error { return WriteMarkdown(b, r) },
	} {
		var b bytes.Buffer
		if err := write(&b, sample()); err != nil {
			t.Fatal(err)
		}
		golden := filepath.Join("testdata", name)
		if *update {
			os.WriteFile(golden, b.Bytes(), 0o644)
			continue
		}
		want, err := os.ReadFile(golden)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(b.Bytes(), want) {
			t.Errorf("%s differs from the golden file (go test -run TestFormatsGolden -update):\n%s", name, b.String())
		}
	}
}

func TestJSONRoundTripAndCompare(t *testing.T) {
	var b bytes.Buffer
	if err := WriteJSON(&b, sample()); err != nil {
		t.Fatal(err)
	}
	old, err := ReadJSON(&b)
	if err != nil || len(old.Rows) != len(sample().Rows) {
		t.Fatalf("%v, %d rows", err, len(old.Rows))
	}
	cur := sample()
	cur.Rows[0].Samples = []float64{650, 655, 645} // twice as fast
	var out bytes.Buffer
	if err := WriteCompare(&out, old, cur); err != nil {
		t.Fatal(err)
	}
	if !regexp.MustCompile(`BenchmarkAlgos/alg=md5/impl=stdlib/size=1KiB\s+1300.0\s+650.0\s+2.00x`).MatchString(out.String()) {
		t.Errorf("compare:\n%s", out.String())
	}
	if err := WriteCompare(&out, Report{}, cur); err == nil {
		t.Error("reports with nothing in common should be an error")
	}
}

// TestHTMLReport checks the page's structure: every section, the charts
// inline, the tables, and no request to anywhere.
func TestHTMLReport(t *testing.T) {
	var b bytes.Buffer
	if err := WriteHTML(&b, sample()); err != nil {
		t.Fatal(err)
	}
	page := b.String()
	for _, want := range []string{`<section id="machine">`, `<section id="recommendations">`, `<section id="charts">`,
		`<section id="calculator"`, `<section id="tables">`, "Test CPU", "AVX2, SHA", "avx2x16 (16 lanes)", "<td>zen3</td>",
		"Throughput by message size", "Concurrent streams", "Integrity against an adversary", "Not MD5 or SHA-1",
		"md5†: 11.00× at 16 streams; worth it from 16 streams", "md5†: SumMany 40.0 ns a message", "2.8× a loop of one-shot sums",
		"<td>readall</td>", "<td>md5†</td>", brokenNote,
		// How to read it: the figures, the comparisons, the marks and the names.
		`<section id="reading">`, "<b>±N%</b> is how far the farthest repetition strays", "measured <b>side by side</b>",
		"<b>uncertain</b>:", "<i>readall</i> reads the whole file", "<i>pooled</i> is io.CopyBuffer", "<i>iocopy</i> is io.Copy"} {
		if !strings.Contains(page, want) {
			t.Errorf("report lacks %q", want)
		}
	}
	if n := strings.Count(page, "<svg"); n != 2 {
		t.Errorf("%d inline charts, want 2", n)
	}
	// Nothing to fetch: no src or href, no url(), no import.
	if m := regexp.MustCompile(`(?i)(src|href)\s*=|url\(|@import|<link|fetch\(|XMLHttpRequest`).FindString(page); m != "" {
		t.Errorf("the page would make a request: %q", m)
	}
}

func TestCharts(t *testing.T) {
	for _, draw := range []func([]Row) ([]byte, error){svgOf(ThroughputChart), svgOf(LanesChart)} {
		svg, err := draw(sample().Rows)
		if err != nil || !bytes.Contains(svg, []byte("<svg")) {
			t.Fatalf("%v: %.100q", err, svg)
		}
	}
	if p, err := LanesChart(nil); p != nil || err != nil {
		t.Error("no lanes rows should give no chart")
	}
}

// TestChartsLegible checks what makes a chart readable: no panel has two
// series of one colour (each takes the colour of its place), every panel
// has data, the families leave no algorithm of the run out, and an
// uncertain row is drawn apart from its line.
func TestChartsLegible(t *testing.T) {
	rows := sample().Rows
	for _, alg := range []string{"sha224", "sha384", "sha512", "sha512-224", "sha512-256", "sha3-256", "blake2b", "blake2s", "blake3", "crc32c", "sha1"} {
		for i, size := range []int64{128, 8 << 10, 1 << 20} {
			r := Row{Suite: "algos", Alg: alg, Impl: "stdlib", Size: size, Bytes: size, Samples: []float64{float64(size), float64(size) * 1.01, float64(size) * 0.99}}
			if alg == "blake3" && i == 1 {
				r.Uncertain = "a dip"
			}
			rows = append(rows, r)
		}
	}
	c, err := ThroughputChart(rows)
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	for i, names := range c.Series {
		if len(names) == 0 {
			t.Errorf("panel %d has no series", i)
		}
		if len(names) > 5 {
			t.Errorf("panel %d has %d series: %v", i, len(names), names)
		}
		for _, n := range names {
			seen[n] = true
		}
	}
	for _, r := range rows {
		if r.Suite == "algos" && !seen[r.Alg] {
			t.Errorf("%s is in no panel", r.Alg)
		}
	}
	if !seen["uncertain"] {
		t.Error("the uncertain row is not drawn apart")
	}
	for _, fams := range [][]family{throughputFamilies, lanesFamilies} {
		for _, f := range fams {
			if len(f.algs) > 5 { // plotutil has 7 colours; the sixth place is the uncertain ring's
				t.Errorf("family %q has %d algorithms", f.title, len(f.algs))
			}
		}
	}
	for _, format := range []string{"svg", "png"} {
		if b, err := Render(c, format); err != nil || len(b) < 1000 {
			t.Errorf("%s: %v, %d bytes", format, err, len(b))
		}
	}
}

func TestParseSize(t *testing.T) {
	for _, s := range []int64{128, 512, 1 << 10, 8 << 10, 1 << 20, 64 << 20, 1000} {
		if n, err := ParseSize(workload.SizeName(s)); err != nil || n != s {
			t.Errorf("%d: %s parses to %d, %v", s, workload.SizeName(s), n, err)
		}
	}
	for _, bad := range []string{"", "KiB", "-1KiB", "1.5MiB", "x"} {
		if _, err := ParseSize(bad); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
}

// TestMeasure: a row of a known cost measures near it, with as many
// samples as repetitions.
func TestMeasure(t *testing.T) {
	r := Row{Suite: "algos", Alg: "x", Impl: "y", Size: 1, Bytes: 1}
	sink := 0
	Config{Reps: 3, MinTime: 2e6}.measure(&r, func(n int) {
		for i := range n * 1000 {
			sink += i
		}
	})
	if len(r.Samples) != 3 || r.Iterations < 1 || r.NsPerOp() <= 0 {
		t.Fatalf("%+v", r)
	}
	_ = sink
}

// TestReadBenchRoundTrip reads back what WriteBench writes, and go test's
// output of the suite benchmarks, which --compare sets side by side.
func TestReadBenchRoundTrip(t *testing.T) {
	var b bytes.Buffer
	if err := WriteBench(&b, sample()); err != nil {
		t.Fatal(err)
	}
	got, err := ReadReport(&b, "bench.txt")
	if err != nil {
		t.Fatal(err)
	}
	want := sample()
	if len(got.Rows) != len(want.Rows) || got.Machine.CPU != "Test CPU" || got.Machine.Procs != 2 {
		t.Fatalf("read %d rows of %d, machine %+v", len(got.Rows), len(want.Rows), got.Machine)
	}
	for i, w := range want.Rows {
		g := got.Rows[i]
		// Without a size, bytes come back from MB/s, to its two decimals.
		if g.Name() != w.Name() || math.Abs(float64(g.Bytes-w.Bytes)) > 1e-4*float64(w.Bytes) || g.Iterations != w.Iterations || g.Allocs != w.Allocs || len(g.Samples) != len(w.Samples) {
			t.Errorf("row %d: read %+v, wrote %+v", i, g, w)
			continue
		}
		for j := range w.Samples {
			if d := g.Samples[j] - w.Samples[j]; d > 0.1 || d < -0.1 {
				t.Errorf("%s sample %d: read %v, wrote %v", w.Name(), j, g.Samples[j], w.Samples[j])
			}
		}
	}

	goTest := `goos: linux
pkg: github.com/hashlanes/hashlanes/cmd/hashlanes/internal/report
BenchmarkSmall/alg=md5/impl=summany/msgs=10000-2   	     238	    571203 ns/op	 786.31 MB/s	     293 B/op	       0 allocs/op
BenchmarkSmall/alg=md5/impl=summany/msgs=10000-2   	     240	    561203 ns/op	 800.32 MB/s	     293 B/op	       0 allocs/op
BenchmarkStreams/alg=md5/impl=avx512/streams=16/size=1MiB-2   	 10	 1000 ns/op
BenchmarkAlgos/alg=md5/impl=stdlib/size=1KiB/extra=1-2   	 10	 1000 ns/op
PASS
`
	rep, err := ReadReport(strings.NewReader(goTest), "gotest.txt")
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Rows) != 1 || rep.Rows[0].Name() != "BenchmarkSmall/alg=md5/impl=summany/msgs=10000" || len(rep.Rows[0].Samples) != 2 || math.Abs(rep.Rows[0].NsPerMsg()-56.6203) > 1e-6 {
		t.Errorf("read %+v", rep.Rows)
	}
	if _, err := ReadReport(strings.NewReader("BenchmarkOther 10 5 ns/op\n"), "other.txt"); err == nil {
		t.Error("a file without rows should be an error")
	}
	if _, err := ReadReport(strings.NewReader(""), "empty.txt"); err == nil {
		t.Error("an empty file should be an error")
	}
}
