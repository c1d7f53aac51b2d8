package main

import (
	"bytes"
	"strings"
	"testing"
)

// TestProgressOnlyWhenAsked: stderr that is not a terminal gets no
// progress line unless --progress; with it, the line is cleared before
// anything else is written, and the results are unchanged.
func TestProgressOnlyWhenAsked(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	writeFile(t, "a", "abc")
	for _, args := range [][]string{{"sum", "-a", "md5", "a"}, {"sum", "--progress", "-a", "md5", "a"}} {
		var stdout, stderr bytes.Buffer
		if code := run(append([]string{"hashlanes"}, args...), nil, &stdout, &stderr); code != 0 {
			t.Fatalf("%q: exit %d: %s", args, code, stderr.String())
		}
		if stdout.String() != "900150983cd24fb0d6963f7d28e17f72  a\n" {
			t.Errorf("%q: stdout %q", args, stdout.String())
		}
		if strings.Contains(stderr.String(), "files") {
			t.Errorf("%q: progress drawn for a job shorter than its delay: %q", args, stderr.String())
		}
	}
}
