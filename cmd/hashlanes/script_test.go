package main

import (
	"bytes"
	"os"
	"os/exec"
	"strings"
	"testing"

	"github.com/hashlanes/hashlanes/cmd/hashlanes/internal/gnu"
	"github.com/rogpeppe/go-internal/testscript"
)

// TestMain lets the test binary stand in for hashlanes and its drop-in
// names inside testscript's scripts.
func TestMain(m *testing.M) {
	// The test binary run with HASHLANES_RUN_AS=md5sum is the drop-in, for
	// tests that need a real process (signals, pipes, other users).
	if name := os.Getenv("HASHLANES_RUN_AS"); name != "" {
		os.Exit(run(append([]string{name}, os.Args[1:]...), os.Stdin, os.Stdout, os.Stderr))
	}
	// Find GNU's tools before testscript puts the drop-ins first on PATH.
	for _, name := range gnu.DropInNames() {
		if p, err := exec.LookPath(name); err == nil {
			gnuTools[name] = p
		}
	}
	cmds := map[string]func(){"hashlanes": mainForScripts}
	for _, name := range gnu.DropInNames() {
		cmds[name] = mainForScripts
	}
	testscript.Main(m, cmds)
}

func mainForScripts() { os.Exit(run(os.Args, os.Stdin, os.Stdout, os.Stderr)) }

// TestScripts runs testdata/script: the GNU goldens and hashlanes' own
// behaviour.
func TestScripts(t *testing.T) {
	testscript.Run(t, testscript.Params{
		Dir: "testdata/script",
		Setup: func(env *testscript.Env) error {
			for k, v := range fixtureEnv {
				env.Setenv(k, v)
			}
			return nil
		},
		Cmds: map[string]func(ts *testscript.TestScript, neg bool, args []string){
			// fixture builds the GNU comparison tree in the work directory.
			"fixture": func(ts *testscript.TestScript, neg bool, args []string) {
				ts.Check(makeFixture(ts.MkAbs(".")))
			},
			// nulfile writes names, each ended by a NUL.
			"nulfile": func(ts *testscript.TestScript, neg bool, args []string) {
				var b bytes.Buffer
				for _, a := range args[1:] {
					b.WriteString(a + "\x00")
				}
				ts.Check(os.WriteFile(ts.MkAbs(args[0]), b.Bytes(), 0o644))
			},
			// subst replaces every old in a file with new ($WORK, say).
			"subst": func(ts *testscript.TestScript, neg bool, args []string) {
				if len(args) != 3 {
					ts.Fatalf("usage: subst file old new")
				}
				ts.Check(os.WriteFile(ts.MkAbs(args[0]), []byte(strings.ReplaceAll(ts.ReadFile(args[0]), args[1], args[2])), 0o644))
			},
			// cmpquoted compares stdout or stderr with a file of quoted
			// pieces (see quoteLines).
			"cmpquoted": func(ts *testscript.TestScript, neg bool, args []string) {
				if len(args) != 2 {
					ts.Fatalf("usage: cmpquoted stdout|stderr file")
				}
				got := ts.ReadFile(args[0])
				want, err := unquoteLines(ts.ReadFile(args[1]))
				ts.Check(err)
				if !bytes.Equal([]byte(got), want) {
					ts.Fatalf("%s differs:\n got %q\nwant %q", args[0], got, want)
				}
			},
		},
	})
}
