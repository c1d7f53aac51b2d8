package progress

import (
	"strings"
	"testing"
	"time"
)

func TestProgressLine(t *testing.T) {
	p := &Line{totalFiles: 10, totalBytes: 4 << 20}
	p.files.Store(5)
	p.bytes.Store(1 << 20)
	if got, want := p.line(2*time.Second), "5/10 files, 1.0 MiB of 4.0 MiB (25%), 512.0 KiB/s, ETA 6s"; got != want {
		t.Errorf("line = %q, want %q", got, want)
	}
	p.totalBytes = -1 // sizes unknown: time left from the file count
	if got, want := p.line(2*time.Second), "5/10 files (50%), 1.0 MiB, 512.0 KiB/s, ETA 2s"; got != want {
		t.Errorf("line = %q, want %q", got, want)
	}
	if got := percent(99.9, 100); got != "99%" {
		t.Errorf("percent short of the end: %s", got)
	}
	if got := percent(100, 100); got != "100%" {
		t.Errorf("percent at the end: %s", got)
	}
}

// TestProgressTimeLeft: a tree of 10,000 small files and then 100 large
// ones, each costing 1 ms plus 1 ns a byte, sampled every 250 ms. While
// the large files run, the time left by bytes alone is far off (the small
// files' time went to opening them, not to bytes); the fit of a cost a
// file and a cost a byte is within 10% of the truth.
func TestProgressTimeLeft(t *testing.T) {
	const perFile, perByte = 1e-3, 1e-9
	sizes := make([]int64, 0, 10100)
	for range 10000 {
		sizes = append(sizes, 1<<10)
	}
	for range 100 {
		sizes = append(sizes, 100<<20)
	}
	var total float64
	p := &Line{totalFiles: len(sizes)}
	for _, n := range sizes {
		p.totalBytes += n
		total += perFile + perByte*float64(n)
	}
	var now, next float64
	var files, bytes int64
	checked := false
	for _, n := range sizes {
		now += perFile + perByte*float64(n)
		files, bytes = files+1, bytes+n
		p.files.Store(files)
		p.bytes.Store(bytes)
		for ; next <= now; next += 0.25 {
			p.fit.add(float64(files), float64(bytes), now)
		}
		if files == 10000+30 { // a third of the large files done
			checked = true
			truth := total - now
			line := p.line(time.Duration(now * float64(time.Second)))
			eta, err := time.ParseDuration(line[strings.LastIndex(line, "ETA ")+4:])
			if err != nil {
				t.Fatalf("%q: %v", line, err)
			}
			if got := eta.Seconds(); got < 0.9*truth || got > 1.1*truth {
				t.Errorf("time left %.1f s, truly %.1f s (%q)", got, truth, line)
			}
			byBytes := float64(p.totalBytes-bytes) * now / float64(bytes)
			if byBytes > 0.9*truth && byBytes < 1.1*truth {
				t.Errorf("bytes alone give %.1f s against %.1f: the case does not test the fit", byBytes, truth)
			}
		}
	}
	if !checked {
		t.Fatal("never checked")
	}
}
