package report

import (
	"flag"
	"runtime"
	"strings"
	"testing"
)

var fullPlan = flag.Bool("full", false, "benchmark the rows of hashlanes bench --full instead of --quick")

// The benchmarks below run the very jobs hashlanes bench measures, under
// the testing package's harness and with the same names, so that
// `benchstat -ignore pkg gotest.txt cli.txt` compares the two harnesses row
// by row (scripts/bench-agree).
func BenchmarkAlgos(b *testing.B) { benchSuite(b, "algos") }
func BenchmarkLanes(b *testing.B) { benchSuite(b, "lanes") }
func BenchmarkSmall(b *testing.B) { benchSuite(b, "small") }
func BenchmarkFiles(b *testing.B) { benchSuite(b, "files") }

func benchSuite(b *testing.B, suite string) {
	p := Plan{Suites: []string{suite}, Sizes: QuickSizes, Quick: true}
	if *fullPlan {
		p.Sizes, p.Quick = SeedSizes, false
	}
	jobs, cleanup, err := p.jobs()
	if err != nil {
		b.Fatal(err)
	}
	defer cleanup()
	for _, j := range jobs {
		if j.op == nil {
			continue // measured outside Go (Python)
		}
		name, ok := strings.CutPrefix(j.row.Name(), b.Name()+"/")
		if !ok {
			b.Fatalf("row %s is not a %s row", j.row.Name(), b.Name())
		}
		b.Run(name, func(b *testing.B) {
			if j.oneP {
				defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(1))
			}
			b.SetBytes(j.row.Bytes)
			b.ReportAllocs()
			j.op(b.N)
		})
	}
}

// TestSuiteBenchmarksNameEveryRow keeps the go test names identical to
// the rows' names, which the comparison relies on.
func TestSuiteBenchmarksNameEveryRow(t *testing.T) {
	p := Plan{Suites: Suites, Sizes: QuickSizes, Quick: true, Python: "python3"}
	jobs, cleanup, err := p.jobs()
	if err != nil {
		t.Fatal(err)
	}
	defer cleanup()
	seen := map[string]bool{}
	for _, j := range jobs {
		name := j.row.Name()
		suite := "Benchmark" + strings.ToUpper(j.row.Suite[:1]) + j.row.Suite[1:]
		if !strings.HasPrefix(name, suite+"/") {
			t.Errorf("row %s does not start with %s/", name, suite)
		}
		if seen[name] {
			t.Errorf("two rows named %s", name)
		}
		seen[name] = true
	}
	if len(seen) < 50 {
		t.Errorf("only %d rows in the quick plan", len(seen))
	}
}
