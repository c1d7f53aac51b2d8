package hashlanes

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// floorChildEnv names the program a fresh test process runs in its main
// goroutine, before the tests start (TestMain), for TestLoneStreamNeverWaits.
const floorChildEnv = "HASHLANES_FLOOR_CHILD"

func TestMain(m *testing.M) {
	if prog := os.Getenv(floorChildEnv); prog != "" {
		os.Exit(floorChild(prog))
	}
	os.Exit(m.Run())
}

// floorChild runs one of the programs a person writes first, in this
// process's only goroutine, and prints the default servers' awaits and
// yields: "file PATH" hashes a file through io.Copy with each algorithm
// on the engine; "after" hashes 30 inputs of 1 MiB one after another, a
// new hasher each, and as many more on one hasher reset per input.
func floorChild(prog string) int {
	algs := []Algorithm{MD5, SHA1, SHA256, SHA512}
	name, arg, _ := strings.Cut(prog, " ")
	data := bytes.Repeat([]byte("floor"), 1<<20/5)
	for _, a := range algs {
		switch name {
		case "file":
			f, err := os.Open(arg)
			if err != nil {
				fmt.Println(err)
				return 1
			}
			h := New(a)
			io.Copy(h, f)
			h.Sum(nil)
			f.Close()
		case "after":
			for range 30 {
				h := New(a)
				for p := data; len(p) > 0; p = p[min(len(p), 32<<10):] {
					h.Write(p[:min(len(p), 32<<10)])
				}
				h.Sum(nil)
			}
			h := New(a)
			for range 30 {
				h.Reset()
				h.Write(data)
				h.Sum(nil)
			}
		}
	}
	fmt.Println("goroutines", runtime.NumGoroutine())
	for _, a := range algs {
		st := DefaultServer(a).Stats()
		fmt.Printf("%v awaits %d yields %d\n", a, st.Awaits, st.Yields)
	}
	return 0
}

// TestLoneStreamNeverWaits runs the first programs a person writes, each
// in a fresh process at GOMAXPROCS 1 and 2, and checks by the engine's
// counters, not a clock, that their lone streams never waited for company
// nor yielded their P: one file through io.Copy, and inputs one after
// another (a finished stream is no company for the next).
func TestLoneStreamNeverWaits(t *testing.T) {
	if DefaultServer(MD5).Reference() {
		t.Skip("no engine in this build")
	}
	file := filepath.Join(t.TempDir(), "input")
	if err := os.WriteFile(file, bytes.Repeat([]byte{7}, 16<<20), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, prog := range []string{"file " + file, "after"} {
		for _, procs := range []string{"1", "2"} {
			cmd := exec.Command(os.Args[0])
			cmd.Env = append(os.Environ(), floorChildEnv+"="+prog, "GOMAXPROCS="+procs)
			out, err := cmd.CombinedOutput()
			skipIfNoChild(t, err)
			if err != nil {
				t.Fatalf("%s: %v\n%s", prog, err, out)
			}
			for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n")[1:] {
				if !strings.HasSuffix(line, "awaits 0 yields 0") {
					t.Errorf("%s at GOMAXPROCS=%s: %s (%s)", strings.Fields(prog)[0], procs, line, strings.SplitN(string(out), "\n", 2)[0])
				}
			}
		}
	}
}
