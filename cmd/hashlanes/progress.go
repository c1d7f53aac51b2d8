package main

import (
	"fmt"
	"io"
	"os"
	"sync"
	"sync/atomic"
	"time"

	"golang.org/x/term"
)

// progress draws a status line on stderr while a long job runs: files and
// bytes done, rate and time left. It appears only after progressDelay, and
// only on a terminal unless --progress asks for it; --no-progress or a
// redirected stderr turn it off.
type progress struct {
	w             io.Writer
	totalFiles    int
	totalBytes    int64 // -1 when some sizes are unknown
	files         atomic.Int64
	bytes         atomic.Int64
	start         time.Time
	quit, stopped chan struct{}
	mu            sync.Mutex // held while drawing
	drawn         bool
}

const (
	progressDelay = time.Second
	progressEvery = 250 * time.Millisecond
)

// progressWanted tells whether a progress line may be drawn.
func (c *command) progressWanted() bool {
	if c.progress == -1 {
		f, ok := c.stderr.(*os.File)
		return ok && term.IsTerminal(int(f.Fd()))
	}
	return c.progress == 1
}

func (c *command) newProgress(items []item) *progress {
	if !c.progressWanted() {
		return nil
	}
	p := &progress{w: c.stderr, totalFiles: len(items), start: time.Now(),
		quit: make(chan struct{}), stopped: make(chan struct{})}
	for _, it := range items {
		if it.size < 0 {
			p.totalBytes = -1
			break
		}
		p.totalBytes += it.size
	}
	c.out.beforeFlush = p.clear
	go p.run()
	return p
}

func (p *progress) add(n int64) {
	if p == nil {
		return
	}
	p.files.Add(1)
	p.bytes.Add(n)
}

func (p *progress) run() {
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

func (p *progress) draw() {
	p.mu.Lock()
	defer p.mu.Unlock()
	fmt.Fprintf(p.w, "\r\x1b[K%s", p.line(time.Since(p.start)))
	p.drawn = true
}

// line formats the status for elapsed time d.
func (p *progress) line(d time.Duration) string {
	files, bytes := p.files.Load(), p.bytes.Load()
	rate := float64(bytes) / d.Seconds()
	s := fmt.Sprintf("%d/%d files, %s, %s/s", files, p.totalFiles, humanBytes(float64(bytes)), humanBytes(rate))
	var left float64
	switch {
	case p.totalBytes > 0 && rate > 0:
		left = float64(p.totalBytes-bytes) / rate
	case files > 0:
		left = d.Seconds() * float64(int64(p.totalFiles)-files) / float64(files)
	default:
		return s
	}
	return s + ", ETA " + (time.Duration(left) * time.Second).Round(time.Second).String()
}

// clear erases the status line before other output is written.
func (p *progress) clear() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.drawn {
		fmt.Fprint(p.w, "\r\x1b[K")
		p.drawn = false
	}
}

func (p *progress) stop() {
	if p == nil {
		return
	}
	close(p.quit)
	<-p.stopped
	p.clear()
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
