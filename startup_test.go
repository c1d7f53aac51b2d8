package hashlanes

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/hashlanes/hashlanes/internal/cpu/cputest"
	"github.com/hashlanes/hashlanes/internal/tuning"
)

// TestStartupImports: the library links no package whose initialisation
// costs every program that imports hashlanes at start. klauspost/cpuid
// runs dozens of CPUID instructions in its init, each a trap to the
// hypervisor in a VM (0.37 ms of a 2 ms program here); it came with
// lukechampine.com/blake3, which only the tests and the command link.
// golang.org/x/sys/cpu runs six on x86 (about 80 µs in a VM), and came with
// golang.org/x/crypto's BLAKE2, which programs link by importing
// ./blake2; on arm64 it reads the kernel's hardware capabilities, no
// trap (docs/engine.md, "Start-up").
func TestStartupImports(t *testing.T) {
	goTool, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command to list the library's imports")
	}
	out, err := exec.Command(goTool, "list", "-deps", ".").Output()
	if err != nil {
		t.Fatalf("go list -deps: %v", err)
	}
	banned := []string{"github.com/klauspost/cpuid", "lukechampine.com/blake3", "golang.org/x/crypto/blake2"}
	if runtime.GOARCH == "amd64" {
		banned = append(banned, "golang.org/x/sys/cpu")
	}
	for _, pkg := range strings.Fields(string(out)) {
		for _, banned := range banned {
			if strings.HasPrefix(pkg, banned) {
				t.Errorf("the library links %s", pkg)
			}
		}
	}
}

// TestStartupInits: linking hashlanes runs almost no code at a program's
// start. The floor's whole program (bench/floor/whole/hashlanes), run with
// GODEBUG=inittrace=1, must show no init work in the kernel packages
// (their lists and specs are static data or made when asked for) and at
// most initAllocBudget allocations in all of hashlanes' packages: today
// the root package's registration of hashlanes tune's families, the CPU
// level read from HASHLANES_CPU and the tuning mode from
// HASHLANES_TUNING. A package variable built by code (an append, a
// closure, a sync.OnceValue, a parsed template) is what this catches
// (docs/engine.md, "Start-up").
func TestStartupInits(t *testing.T) {
	if runtime.GOARCH != "amd64" {
		t.Skip("the budget is amd64's; other GOARCHes list other kernels")
	}
	prog, file := buildWhole(t)
	run := exec.Command(prog, "md5", file)
	run.Env = append(os.Environ(), "GODEBUG=inittrace=1")
	var stderr strings.Builder
	run.Stderr = &stderr
	if err := run.Run(); err != nil {
		t.Fatalf("%s: %v\n%s", prog, err, stderr.String())
	}
	const initAllocBudget = 10
	allocs, seen := 0, 0
	for line := range strings.Lines(stderr.String()) {
		// init PKG @T ms, C ms clock, B bytes, N allocs
		f := strings.Fields(line)
		if len(f) < 11 || f[0] != "init" || !strings.HasPrefix(f[1], "github.com/hashlanes/hashlanes") {
			continue
		}
		seen++
		if strings.HasPrefix(f[1], "github.com/hashlanes/hashlanes/internal/kernel") {
			t.Errorf("%s runs code at start: %s", f[1], strings.TrimSpace(line))
		}
		n, err := strconv.Atoi(f[9])
		if err != nil {
			t.Fatalf("cannot read the allocations of %q", line)
		}
		allocs += n
	}
	if seen == 0 {
		t.Fatalf("no init trace of hashlanes' packages in:\n%s", stderr.String())
	}
	if allocs > initAllocBudget {
		t.Errorf("hashlanes' package inits allocate %d times, more than %d:\n%s", allocs, initAllocBudget, stderr.String())
	}
}

// buildWhole builds the floor's whole program (bench/floor/whole/hashlanes)
// and writes a small file for it to hash.
func buildWhole(t *testing.T) (prog, file string) {
	t.Helper()
	goTool, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command to build the program")
	}
	dir := t.TempDir()
	prog = filepath.Join(dir, "whole")
	build := exec.Command(goTool, "build", "-o", prog, "./bench/floor/whole/hashlanes")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	file = filepath.Join(dir, "input")
	if err := os.WriteFile(file, []byte("hashlanes"), 0o644); err != nil {
		t.Fatal(err)
	}
	return prog, file
}

// TestBLAKE2NeedsItsImport: a program that does not import ./blake2 (the
// floor's whole program) reports BLAKE2 unavailable, and hashing it panics
// with the import to add rather than a nil function's fault.
func TestBLAKE2NeedsItsImport(t *testing.T) {
	if !BLAKE2b.Available() || !BLAKE2s.Available() {
		t.Fatal("the tests import ./blake2, yet BLAKE2 is not available")
	}
	if cputest.Emulated() {
		t.Skip("under a user-mode emulator the program built for this GOARCH cannot be run directly")
	}
	prog, file := buildWhole(t)
	for _, alg := range []string{"blake2b", "blake2s"} {
		var stderr strings.Builder
		run := exec.Command(prog, alg, file)
		run.Stderr = &stderr
		err := run.Run()
		const want = `hashlanes: ` + "%s" + ` is not linked into this program: import _ "github.com/hashlanes/hashlanes/blake2"`
		if err == nil || !strings.Contains(stderr.String(), fmt.Sprintf(want, alg)) {
			t.Errorf("%s %s: %v, want a panic saying %q; stderr:\n%s", prog, alg, err, fmt.Sprintf(want, alg), stderr.String())
		}
	}
}

// TestFamiliesForTune: the kernel families are made on first use, and
// hashlanes tune still finds every one of them.
func TestFamiliesForTune(t *testing.T) {
	var names []string
	for _, f := range tuning.Families() {
		names = append(names, f.Name())
	}
	slices.Sort(names)
	names = slices.Compact(names)
	if want := []string{"md5", "sha1", "sha256", "sha512"}; !slices.Equal(names, want) {
		t.Errorf("tuning.Families() names %v, want %v", names, want)
	}
}
