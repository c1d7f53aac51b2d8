//go:build amd64 && !purego

package kernel_test

import (
	"debug/elf"
	"debug/gosym"
	"os"
	"reflect"
	"regexp"
	"strconv"
	"testing"

	"github.com/hashlanes/hashlanes/internal/kernel/md5"
	"github.com/hashlanes/hashlanes/internal/kernel/sha1"
	"github.com/hashlanes/hashlanes/internal/kernel/sha256"
	"github.com/hashlanes/hashlanes/internal/kernel/sha512"
)

// TestCodeWarmed checks that each lane kernel's refresh of its own code
// in the L2 (internal/kernel/_asm/warm) covers all of that code, as the
// function table of this test binary measures it: a kernel grown past the
// bound its generator was given would leave its tail to go cold.
func TestCodeWarmed(t *testing.T) {
	exe, err := os.Executable()
	if err != nil {
		t.Skip(err)
	}
	f, err := elf.Open(exe)
	if err != nil {
		t.Skipf("no ELF symbol table: %v", err)
	}
	defer f.Close()
	// go test strips the symbol table; the function table stays, as the
	// runtime needs it. An assembly function's extent there includes its
	// padding to the next one.
	pcln, text := f.Section(".gopclntab"), f.Section(".text")
	if pcln == nil || text == nil {
		t.Skip("no Go function table in this binary")
	}
	data, err := pcln.Data()
	if err != nil {
		t.Fatal(err)
	}
	table, err := gosym.NewTable(nil, gosym.NewLineTable(data, text.Addr))
	if err != nil {
		t.Fatal(err)
	}
	size := map[string]uint64{}
	for _, fn := range table.Funcs {
		size[fn.Name] = fn.End - fn.Entry
	}
	// The kernels' lists keep every kernel linked into this binary.
	_, _, _, _ = md5.Multis(), sha1.Multis(), sha256.Multis(), sha512.Multis()
	files := []struct{ pkg, asm string }{
		{reflect.TypeFor[md5.State]().PkgPath(), "md5/md5block_amd64.s"},
		{reflect.TypeFor[sha1.State]().PkgPath(), "sha1/sha1block_amd64.s"},
		{reflect.TypeFor[sha256.State]().PkgPath(), "sha256/sha256block_amd64.s"},
		{reflect.TypeFor[sha512.State]().PkgPath(), "sha512/sha512block_amd64.s"},
	}
	warm := regexp.MustCompile(`// warm: the first (\d+) bytes of (\w+), every`)
	for _, file := range files {
		src, err := os.ReadFile(file.asm)
		if err != nil {
			t.Fatal(err)
		}
		found := warm.FindAllSubmatch(src, -1)
		if len(found) == 0 {
			t.Errorf("%s: no kernel refreshes its code", file.asm)
		}
		for _, m := range found {
			bound, _ := strconv.Atoi(string(m[1]))
			name := file.pkg + "." + string(m[2])
			n, ok := size[name]
			switch {
			case !ok:
				t.Errorf("%s: no symbol %s in this binary", file.asm, name)
			case n > uint64(bound):
				t.Errorf("%s is %d bytes, but it refreshes only its first %d: raise the bound in its generator", name, n, bound)
			default:
				t.Logf("%s: %d of %d bytes", name, n, bound)
			}
		}
	}
}
