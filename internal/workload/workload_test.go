package workload

import (
	"bytes"
	"testing"
)

func TestURLPaths(t *testing.T) {
	paths := URLPaths(10000)
	for _, p := range paths {
		if len(p) < 40 || len(p) > 75 {
			t.Fatalf("path of %d bytes", len(p))
		}
	}
	if !bytes.Equal(URLPaths(3)[2], paths[2]) {
		t.Fatal("corpus is not deterministic")
	}
}

func TestSizeName(t *testing.T) {
	for n, want := range map[int64]string{128: "128B", 1000: "1000B", 8 << 10: "8KiB", 1536: "1536B", 64 << 20: "64MiB"} {
		if got := SizeName(n); got != want {
			t.Errorf("SizeName(%d) = %q, want %q", n, got, want)
		}
	}
}
