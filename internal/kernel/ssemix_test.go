package kernel_test

import (
	"bufio"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// TestNoSSEWithDirtyUpper reads every generated amd64 assembly file of the
// module and fails where a legacy SSE instruction (one without a VEX or
// EVEX encoding, SHA-NI's among them) can run while the upper halves of
// YMM0-15 or ZMM0-15 hold data, or where a function returns in that state.
// On an Emerald Rapids Xeon such an instruction cost about 250 ns: a MOVQ
// from a general register into X1 in the batch kernels' padding made them
// 14 times slower, unseen where they had been measured before, on AMD
// Zen 3 and Zen 4 (docs/kernel-design.md, "Vector registers beside the
// SHA extensions").
//
// The scan follows each function's text in order: a reference to a
// YMM0-15 or ZMM0-15 register makes the state dirty, VZEROUPPER or
// VZEROALL clean. YMM16-31 and ZMM16-31 have no legacy-SSE view and leave
// it clean, which is what lets the hybrid SHA-NI kernels run their vector
// lanes beside SHA-NI's rounds.
func TestNoSSEWithDirtyUpper(t *testing.T) {
	files, err := filepath.Glob("../../internal/*/*_amd64.s")
	if err != nil {
		t.Fatal(err)
	}
	more, err := filepath.Glob("../../internal/kernel/*/*_amd64.s")
	if err != nil {
		t.Fatal(err)
	}
	files = append(files, more...)
	if len(files) < 5 {
		t.Fatalf("found %d amd64 assembly files, want the kernels' and the helpers'", len(files))
	}
	for _, name := range files {
		for _, p := range sseMixes(t, name) {
			t.Errorf("%s", p)
		}
	}
}

var (
	// lowWide: YMM0-15 or ZMM0-15 as an operand.
	lowWide = regexp.MustCompile(`\b[YZ](1[0-5]|[0-9])\b`)
	// lowXMM: XMM0-15 as an operand, which a legacy SSE instruction takes.
	lowXMM = regexp.MustCompile(`\bX(1[0-5]|[0-9])\b`)
)

// sseMixes returns, for one assembly file, each legacy SSE instruction
// reached with the upper state dirty and each return in that state.
func sseMixes(t *testing.T, name string) []string {
	f, err := os.Open(name)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var found []string
	fn, dirty := "", false
	sc := bufio.NewScanner(f)
	for line := 1; sc.Scan(); line++ {
		text := sc.Text()
		if i := strings.Index(text, "//"); i >= 0 {
			text = text[:i]
		}
		fields := strings.Fields(text)
		if len(fields) == 0 || strings.HasSuffix(fields[0], ":") {
			continue
		}
		op := fields[0]
		where := func(what string) string {
			return filepath.Base(name) + ":" + strconv.Itoa(line) + " " + fn + ": " + what + ": " + strings.TrimSpace(text)
		}
		switch {
		case op == "TEXT":
			fn, dirty = fields[1], false
			continue
		case op == "VZEROUPPER" || op == "VZEROALL":
			dirty = false
			continue
		case op == "RET" && dirty:
			found = append(found, where("returns with the upper state dirty"))
			continue
		}
		if lowWide.MatchString(text) {
			dirty = true
		}
		if dirty && !strings.HasPrefix(op, "V") && lowXMM.MatchString(text) {
			found = append(found, where("legacy SSE with the upper state dirty"))
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return found
}
