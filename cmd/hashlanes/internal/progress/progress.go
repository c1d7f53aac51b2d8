// Package progress draws the checksum commands' status line on a
// terminal while a long job runs.
package progress

import (
	"fmt"
	"io"
	"os"
	"sync"
	"sync/atomic"
	"time"

	"golang.org/x/term"
)

// Line draws a status line on stderr while a long job runs: files and
// bytes done of the totals, the share done, the rate and the time left. It
// appears only after progressDelay, and only on a terminal unless
// --progress asks for it; --no-progress or a redirected stderr turn it
// off.
type Line struct {
	w             io.Writer
	totalFiles    int
	totalBytes    int64 // -1 when some sizes are unknown
	files         atomic.Int64
	bytes         atomic.Int64
	start         time.Time
	quit, stopped chan struct{}
	mu            sync.Mutex // held while drawing
	drawn         bool
	fit           timeFit
}

// timeFit estimates a job's time as a cost a file plus a cost a byte,
// t = a*files + b*bytes, by least squares over the samples taken as it
// runs. Time per byte alone misjudges a tree whose small files come first
// (sorted names put a directory of small files before one of large
// ones): on a 17 s run its time left swung from 1m12s to 10s. The sums
// of the normal equations are kept, not the samples.
type timeFit struct {
	ff, fb, bb, ft, bt float64
	n                  int
}

func (f *timeFit) add(files, bytes, secs float64) {
	f.ff += files * files
	f.fb += files * bytes
	f.bb += bytes * bytes
	f.ft += files * secs
	f.bt += bytes * secs
	f.n++
}

// costs returns the cost a file and a byte, in seconds, ok false while
// the samples cannot tell them apart (too few, or files and bytes in
// proportion all along, as with files of one size).
func (f *timeFit) costs() (perFile, perByte float64, ok bool) {
	det := f.ff*f.bb - f.fb*f.fb
	if f.n < 4 || !(det > 1e-6*f.ff*f.bb) {
		return 0, 0, false
	}
	perFile = (f.ft*f.bb - f.bt*f.fb) / det
	perByte = (f.ff*f.bt - f.fb*f.ft) / det
	return perFile, perByte, perFile >= 0 && perByte >= 0
}

const (
	progressDelay = time.Second
	progressEvery = 250 * time.Millisecond
)

// Wanted tells whether a progress line may be drawn on stderr: setting
// is --progress's (1), --no-progress's (0), or neither (-1: only on a
// terminal).
func Wanted(setting int, stderr io.Writer) bool {
	if setting == -1 {
		f, ok := stderr.(*os.File)
		return ok && term.IsTerminal(int(f.Fd()))
	}
	return setting == 1
}

// New starts a progress line on w for a job of files files and
// totalBytes bytes (-1: unknown).
func New(w io.Writer, files int, totalBytes int64) *Line {
	p := &Line{w: w, totalFiles: files, totalBytes: totalBytes, start: time.Now(),
		quit: make(chan struct{}), stopped: make(chan struct{})}
	go p.run()
	return p
}

func (p *Line) Add(n int64) {
	if p == nil {
		return
	}
	p.files.Add(1)
	p.bytes.Add(n)
}

func (p *Line) run() {
	defer close(p.stopped)
	t := time.NewTimer(progressDelay)
	defer t.Stop()
	for {
		select {
		case <-p.quit:
			return
		case <-t.C:
			p.draw()
			t.Reset(progressEvery)
		}
	}
}

func (p *Line) draw() {
	p.mu.Lock()
	defer p.mu.Unlock()
	d := time.Since(p.start)
	p.fit.add(float64(p.files.Load()), float64(p.bytes.Load()), d.Seconds())
	fmt.Fprintf(p.w, "\r\x1b[K%s", p.line(d))
	p.drawn = true
}

// line formats the status for elapsed time d.
func (p *Line) line(d time.Duration) string {
	files, bytes := p.files.Load(), p.bytes.Load()
	rate := float64(bytes) / d.Seconds()
	var s string
	if p.totalBytes >= 0 {
		s = fmt.Sprintf("%d/%d files, %s of %s (%s), %s/s", files, p.totalFiles, humanBytes(float64(bytes)), humanBytes(float64(p.totalBytes)),
			percent(float64(bytes), float64(p.totalBytes)), humanBytes(rate))
	} else {
		s = fmt.Sprintf("%d/%d files (%s), %s, %s/s", files, p.totalFiles, percent(float64(files), float64(p.totalFiles)), humanBytes(float64(bytes)), humanBytes(rate))
	}
	filesLeft := float64(int64(p.totalFiles) - files)
	var left float64
	perFile, perByte, fitted := p.fit.costs()
	switch {
	case fitted && p.totalBytes >= 0:
		left = perFile*filesLeft + perByte*float64(p.totalBytes-bytes)
	case p.totalBytes > 0 && rate > 0:
		left = float64(p.totalBytes-bytes) / rate
	case files > 0:
		left = d.Seconds() * filesLeft / float64(files)
	default:
		return s
	}
	return s + ", ETA " + (time.Duration(left) * time.Second).Round(time.Second).String()
}

// percent is part of whole as a whole percentage, "100%" only at the end.
func percent(part, whole float64) string {
	if whole <= 0 {
		return "100%"
	}
	return fmt.Sprintf("%d%%", min(int(100*part/whole), 99+int(part/whole)))
}

// Clear erases the status line before other output is written.
func (p *Line) Clear() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.drawn {
		fmt.Fprint(p.w, "\r\x1b[K")
		p.drawn = false
	}
}

func (p *Line) Stop() {
	if p == nil {
		return
	}
	close(p.quit)
	<-p.stopped
	p.Clear()
}

func humanBytes(n float64) string {
	units := []string{"B", "KiB", "MiB", "GiB", "TiB"}
	u := 0
	for n >= 1024 && u < len(units)-1 {
		n /= 1024
		u++
	}
	if u == 0 {
		return fmt.Sprintf("%.0f %s", n, units[u])
	}
	return fmt.Sprintf("%.1f %s", n, units[u])
}
