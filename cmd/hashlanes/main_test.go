package main

import (
	"bytes"
	"os"
	"os/exec"
	"regexp"
	"strings"
	"testing"

	"github.com/hashlanes/hashlanes"

	"github.com/hashlanes/hashlanes/internal/tuning"
)

func TestVersion(t *testing.T) {
	var out, errb bytes.Buffer
	if code := run([]string{"hashlanes", "version"}, nil, &out, &errb); code != 0 {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	for _, want := range []string{"hashlanes ", "cpu: ", "tuning: mode ", "md5:", "sha256:", "sha3-256:   crypto/sha3\n", "blake3:     " + hashlanes.DefaultServer(hashlanes.BLAKE3).Kernel() + "\n"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("output lacks %q:\n%s", want, out.String())
		}
	}
	// The engines' algorithms say where their rates come from and which
	// kernel each count of ready streams gets, from one stream on ("1 amd64;
	// ..." or, where one kernel takes several counts, "1-5 shani; ...").
	if n := len(regexp.MustCompile(`by streams ready: 1[ -]`).FindAllString(out.String(), -1)); n != 8 && !strings.Contains(out.String(), "md5:        crypto/md5") {
		t.Errorf("%d algorithms with their choice by streams, want the 8 on the engine:\n%s", n, out.String())
	}
	out.Reset()
	if code := run([]string{"hashlanes", "--version"}, nil, &out, &errb); code != 0 || !strings.HasPrefix(out.String(), "hashlanes ") || strings.Count(out.String(), "\n") != 1 {
		t.Errorf("--version: exit %d, %q", code, out.String())
	}
}

// TestBadTuningEnv checks that an unknown HASHLANES_TUNING is reported,
// and the default applies.
func TestBadTuningEnv(t *testing.T) {
	t.Setenv("HASHLANES_TUNING", "fastest")
	cmd := exec.Command(os.Args[0], "-test.run=^TestVersionHelper$")
	cmd.Env = append(os.Environ(), "HASHLANES_VERSION_HELPER=1")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	if !strings.Contains(string(out), `hashlanes: unknown HASHLANES_TUNING "fastest"`) || !strings.Contains(string(out), "tuning: mode auto;") {
		t.Fatalf("no clear error, or not the default mode:\n%s", out)
	}
}

func TestBadCPUEnv(t *testing.T) {
	t.Setenv("HASHLANES_CPU", "avx3")
	// The level is read once at start-up, so check through a fresh process.
	cmd := exec.Command(os.Args[0], "-test.run=^TestVersionHelper$")
	cmd.Env = append(os.Environ(), "HASHLANES_VERSION_HELPER=1")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	if !strings.Contains(string(out), "hashlanes: unknown CPU level \"avx3\" (want generic, avx2 or avx512)\n") {
		t.Fatalf("no clear error:\n%s", out)
	}
}

func TestVersionHelper(t *testing.T) {
	if os.Getenv("HASHLANES_VERSION_HELPER") == "" {
		t.Skip("helper for TestBadCPUEnv")
	}
	run([]string{"hashlanes", "version"}, nil, os.Stdout, os.Stdout)
}

func TestUsageErrors(t *testing.T) {
	for _, args := range [][]string{nil, {"frobnicate"}, {"version", "extra"}} {
		var out, errb bytes.Buffer
		if code := run(append([]string{"hashlanes"}, args...), nil, &out, &errb); code != 2 || errb.Len() == 0 {
			t.Errorf("%q: exit %d, stderr %q", args, code, errb.String())
		}
	}
}

// TestTune runs a short hashlanes tune: the crossover table of each
// family, and a wisdom file the engines would read.
func TestTune(t *testing.T) {
	if testing.Short() {
		t.Skip("a second of measuring")
	}
	path := t.TempDir() + "/tuning.json"
	var out, errb bytes.Buffer
	if code := run([]string{"hashlanes", "tune", "--rounds", "2", "-o", path}, nil, &out, &errb); code != 0 {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	for _, want := range []string{"\nmd5 (MB/s", "\nsha1 (MB/s", "\nsha256 (MB/s", "\nsha512 (MB/s", "| 16 |", "SumMany in lanes: md5 from ", "wrote " + path} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("output lacks %q:\n%s", want, out.String())
		}
	}
	if _, err := tuning.ReadWisdom(path); err != nil {
		t.Errorf("the wisdom file written: %v", err)
	}
	out.Reset()
	if code := run([]string{"hashlanes", "tune", "--help"}, nil, &out, &errb); code != 0 || !strings.Contains(out.String(), "Usage: hashlanes tune") {
		t.Errorf("--help: exit %d, %q", code, out.String())
	}
	if code := run([]string{"hashlanes", "tune", "--rounds", "x"}, nil, &out, &errb); code != 2 {
		t.Errorf("a bad --rounds: exit %d", code)
	}
}
