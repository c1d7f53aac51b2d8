package main

import (
	"bytes"
	"os"
	"os/exec"
	"strings"
	"testing"
)

func TestVersion(t *testing.T) {
	var out, errb bytes.Buffer
	if code := run([]string{"hashlanes", "version"}, nil, &out, &errb); code != 0 {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	for _, want := range []string{"hashlanes ", "cpu: ", "md5:", "sha256:", "sha3-256:   crypto/sha3\n", "blake3:     lukechampine.com/blake3\n"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("output lacks %q:\n%s", want, out.String())
		}
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
