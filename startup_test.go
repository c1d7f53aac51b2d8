package hashlanes

import (
	"os/exec"
	"slices"
	"strings"
	"testing"

	"github.com/hashlanes/hashlanes/internal/tuning"
)

// TestStartupImports: the library links no package whose initialisation
// costs every program that imports hashlanes at start. klauspost/cpuid
// runs dozens of CPUID instructions in its init, each a trap to the
// hypervisor in a VM (0.37 ms of a 2 ms program here); it came with
// lukechampine.com/blake3, which only the tests and the command link
// (docs/engine.md, "Start-up").
func TestStartupImports(t *testing.T) {
	goTool, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command to list the library's imports")
	}
	out, err := exec.Command(goTool, "list", "-deps", ".").Output()
	if err != nil {
		t.Fatalf("go list -deps: %v", err)
	}
	for _, pkg := range strings.Fields(string(out)) {
		for _, banned := range []string{"github.com/klauspost/cpuid", "lukechampine.com/blake3"} {
			if strings.HasPrefix(pkg, banned) {
				t.Errorf("the library links %s", pkg)
			}
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
