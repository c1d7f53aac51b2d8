package hashlanes

import (
	"go/ast"
	"go/doc"
	"go/parser"
	"go/token"
	"strings"
	"testing"

	"github.com/hashlanes/hashlanes/internal/blake3tree"
)

// TestPackageDocSaysWhichFunctionWhen: the package documentation opens
// with every front door a user chooses among, and says what runs BLAKE3
// as Server.Kernel does.
func TestPackageDocSaysWhichFunctionWhen(t *testing.T) {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "hashlanes.go", nil, parser.ParseComments|parser.PackageClauseOnly)
	if err != nil {
		t.Fatal(err)
	}
	pkg, err := doc.NewFromFiles(fset, []*ast.File{f}, "github.com/hashlanes/hashlanes")
	if err != nil {
		t.Fatal(err)
	}
	text := pkg.Doc
	if !strings.Contains(text, "# Which function when") {
		t.Error(`no "Which function when" section`)
	}
	for _, name := range []string{"Sum", "AppendSum", "New", "SumMany", "SumManyHex", "SumReaders", "SumStreams", "SumFile", "NewServer"} {
		if !strings.Contains(text, "["+name+"]") {
			t.Errorf("the package doc does not name [%s]", name)
		}
	}
	if k := DefaultServer(BLAKE3).Kernel(); k != blake3tree.Kernels() {
		t.Errorf("BLAKE3's Kernel() = %q, want what its hasher runs, %q", k, blake3tree.Kernels())
	}
}
