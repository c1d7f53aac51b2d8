package sumfile

import (
	"io"
	"os"

	"golang.org/x/term"
)

// Writer buffers whole lines and writes only whole lines, so output
// cut short by a signal or a closed pipe never ends mid-line, and results
// do not interleave. The first write error is kept and reported at exit.
type Writer struct {
	w           io.Writer
	buf         []byte
	err         error
	EachLine    bool   // a terminal sees each line at once
	BeforeFlush func() // clears a progress line
}

const lineWriterFlushAt = 64 << 10

// NewWriter writes lines to w, each at once where w is a terminal.
func NewWriter(w io.Writer) *Writer {
	f, ok := w.(*os.File)
	return &Writer{w: w, EachLine: ok && term.IsTerminal(int(f.Fd()))}
}

// Write takes one or more whole lines.
func (l *Writer) Write(p []byte) (int, error) {
	l.buf = append(l.buf, p...)
	if len(l.buf) >= lineWriterFlushAt || l.EachLine {
		l.Flush()
	}
	return len(p), nil
}

func (l *Writer) Flush() error {
	if len(l.buf) > 0 && l.err == nil {
		if l.BeforeFlush != nil {
			l.BeforeFlush()
		}
		_, l.err = l.w.Write(l.buf)
	}
	l.buf = l.buf[:0]
	return l.err
}
