package main

import "io"

// lineWriter buffers whole lines and writes only whole lines, so output
// cut short by a signal or a closed pipe never ends mid-line, and results
// do not interleave. The first write error is kept and reported at exit.
type lineWriter struct {
	w           io.Writer
	buf         []byte
	err         error
	eachLine    bool   // a terminal sees each line at once
	beforeFlush func() // clears a progress line
}

const lineWriterFlushAt = 64 << 10

func newLineWriter(w io.Writer) *lineWriter { return &lineWriter{w: w} }

// Write takes one or more whole lines.
func (l *lineWriter) Write(p []byte) (int, error) {
	l.buf = append(l.buf, p...)
	if len(l.buf) >= lineWriterFlushAt || l.eachLine {
		l.flush()
	}
	return len(p), nil
}

func (l *lineWriter) flush() error {
	if len(l.buf) > 0 && l.err == nil {
		if l.beforeFlush != nil {
			l.beforeFlush()
		}
		_, l.err = l.w.Write(l.buf)
	}
	l.buf = l.buf[:0]
	return l.err
}
