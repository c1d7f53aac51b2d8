// Package lanewrap writes the Go side of a kernel package's generated
// kernels: for each multi-lane kernel, the function of the engine's
// signature (kernel.Multi's Fn) that moves the busy lanes' states and
// pointers into the kernel's own arrays, word by word for its shape,
// calls it, and moves the states back; and the lists of the multi-lane
// and batch kernels, with the name, CPU level and lane count the engine
// and the tuning know them by. The generator knows every kernel's shape,
// so these are written beside the assembly rather than by hand.
//
// A generator records its kernels with Lanes, Rows, Hybrid and Batch, and
// its main calls Write after avo's Generate (WriteFor for another GOARCH
// than amd64: arm64text's generators); the output file is named by the
// -lanes flag (none: nothing is written). The package declares
//
//	var laneKernels = []kernel.Multi[State]{...}
//	var batchKernels = []kernel.Batch{...}              // or, with an IV:
//	func batchKernels(iv *byte, size int) []kernel.Batch
//
// (the batch list only where batch kernels were recorded).
package lanewrap

import (
	"bytes"
	"flag"
	"fmt"
	"go/format"
	"os"
	"slices"
	"strings"
)

var out = flag.String("lanes", "", "write the Go side of the generated kernels to this file")

// Kernel names a generated kernel for the lists.
type Kernel struct {
	// Go is the kernel's suffix in Go: block<Go> is the assembly of a
	// multi-lane kernel, blocks<Go> its wrapper, sum<Go> a batch kernel.
	// Lowercased, it is the kernel's name ("AVX512YMMx16": "avx512ymmx16").
	Go    string
	Name  string // the kernel's name where it is not Go lowercased
	Level string // the cpu.Level it needs: "Generic", "AVX2", "AVX512"
	Needs string // the cpu.Feature it needs beyond the level ("SHA"), if any
	Lanes int
	Doc   string // why the kernel is there, a line above its entry

	fast, fastBlocks int // a hybrid's fast streams and their blocks a lane block (Hybrid)
}

func (k Kernel) entry(fn string) string {
	var b strings.Builder
	if k.Doc != "" {
		fmt.Fprintf(&b, "\t// %s\n", k.Doc)
	}
	name := k.Name
	if name == "" {
		name = strings.ToLower(k.Go)
	}
	fmt.Fprintf(&b, "\t{Name: %q, Level: cpu.%s, ", name, k.Level)
	if k.Needs != "" {
		fmt.Fprintf(&b, "Needs: cpu.%s, ", k.Needs)
	}
	fmt.Fprintf(&b, "Lanes: %d, ", k.Lanes)
	if k.fast > 0 {
		fmt.Fprintf(&b, "Fast: %d, FastBlocks: %d, ", k.fast, k.fastBlocks)
	}
	fmt.Fprintf(&b, "Fn: %s},\n", fn)
	return b.String()
}

// wrapper is one multi-lane kernel's wrapper.
type wrapper struct {
	k       Kernel
	comment string
	body    string
}

var (
	wrappers []wrapper
	batches  []Kernel
	batchIV  bool
)

// Lanes records blocks<Go> around the kernel block<Go>, whose state is
// words rows of one word of every lane (lane-major) of bits bits. The
// moves in and out are written out word by word for the kernel's shape:
// moves written once for any shape cost SumMany 5% on MD5 messages of
// 4 KiB (docs/figures.md, "Figures behind the code", "Moves").
func Lanes(k Kernel, words, bits int) {
	in, out := laneMoves(k.Lanes, words, 0)
	body := fmt.Sprintf(`	if !kernel.Work(mask, %[1]d, nblocks, maxBlocks) {
		return
	}
	var ls [%[2]d][%[1]d]uint%[3]d
	var p [%[1]d]*byte
%[4]s	block%[6]s(&ls, &p, nblocks)
%[5]s`, k.Lanes, words, bits, in, out, k.Go)
	wrappers = append(wrappers, wrapper{k: k, body: body,
		comment: fmt.Sprintf("runs block%s on lanes 0..%d: %d words of each lane's state, word-major.", k.Go, k.Lanes-1, words)})
}

// Rows records blocks<Go> around the kernel block<Go>, whose state is a
// row of rowWords 32-bit words a stream: a row wider than the state, so
// that the kernel's 16-byte loads stay inside it.
func Rows(k Kernel, rowWords int) { RowsOf(k, rowWords, 32) }

// RowsOf is Rows for rows of rowWords words of bits bits (32 or 64). A
// state moves as one typed copy into the start of its row; the generated
// file fails to compile if the row is narrower than the state.
func RowsOf(k Kernel, rowWords, bits int) {
	in, out := rowMoves("rows", "p", 0)
	body := fmt.Sprintf(`	const _ = unsafe.Sizeof([%[1]d]uint%[3]d{}) - unsafe.Sizeof(State{}) // a row holds a state
	if !kernel.Work(mask, %[2]d, nblocks, maxBlocks) {
		return
	}
	var rows [%[2]d][%[1]d]uint%[3]d
	var p [%[2]d]*byte
%[4]s	block%[6]s(&rows, &p, nblocks)
%[5]s`, rowWords, k.Lanes, bits, in, out, k.Go)
	wrappers = append(wrappers, wrapper{k: k, body: body,
		comment: fmt.Sprintf("runs block%s on streams 0..%d, a row of %d words each.", k.Go, k.Lanes-1, rowWords)})
}

// Hybrid records blocks<Go> around the hybrid kernel block<Go>: its
// first two lanes are fast streams, a row of 8 32-bit words each (as
// Rows), hashing fastBlocks blocks for each block of the other 8, whose
// states of words words are lane-major (as Lanes).
func Hybrid(k Kernel, words, fastBlocks int) {
	k.fast, k.fastBlocks = 2, fastBlocks
	rowsIn, rowsOut := rowMoves("rows", "fast", 0)
	lanesIn, lanesOut := laneMoves(k.Lanes-2, words, 2)
	body := fmt.Sprintf(`	const _ = unsafe.Sizeof([8]uint32{}) - unsafe.Sizeof(State{}) // a row holds a state
	if !kernel.Work(mask, %[1]d, %[2]d*nblocks, maxBlocks) {
		return
	}
	var rows [2][8]uint32
	var fast [2]*byte
	var ls [%[3]d][%[4]d]uint32
	var p [%[4]d]*byte
%[5]s%[6]s	block%[9]s(&rows, &fast, &ls, &p, nblocks)
%[7]s%[8]s`, k.Lanes, fastBlocks, words, k.Lanes-2, rowsIn, lanesIn, rowsOut, lanesOut, k.Go)
	wrappers = append(wrappers, wrapper{k: k, body: body,
		comment: fmt.Sprintf("runs block%s: its fast streams in lanes 0 and 1, a row of\n// 8 words each, %d blocks for each block of lanes 2..%d, %d words of each state, word-major.", k.Go, fastBlocks, k.Lanes-1, words)})
}

// laneMoves returns the loops that move the states of lanes first..
// first+n-1 (of the engine's arrays states and ptrs) into ls, word w of
// the kernel's lane i at ls[w][i], and their pointers into p, masked-out
// lanes pointed at zeroLanes; and the loop that moves the states back.
func laneMoves(n, words, first int) (in, out string) {
	var lanes, state []string
	for w := range words {
		lanes = append(lanes, fmt.Sprintf("ls[%d][i]", w))
		state = append(state, fmt.Sprintf("s[%d]", w))
	}
	lane := engineLane(first)
	in = fmt.Sprintf(`	for i := range p {
		if mask&(1<<%[4]s) == 0 {
			p[i] = &zeroLanes[0]
			continue
		}
		s := states[%[1]s]
		%[2]s = %[3]s
		p[i] = ptrs[%[1]s]
	}
`, lane, strings.Join(lanes, ", "), strings.Join(state, ", "), bit(lane))
	out = fmt.Sprintf(`	for i := range p {
		if mask&(1<<%[4]s) != 0 {
			s := states[%[1]s]
			%[3]s = %[2]s
		}
	}
`, lane, strings.Join(lanes, ", "), strings.Join(state, ", "), bit(lane))
	return in, out
}

// rowMoves returns the loops that move the states of the streams first..
// into the start of their rows (one typed copy each) and their pointers
// into ptr, and back.
func rowMoves(rows, ptr string, first int) (in, out string) {
	lane := engineLane(first)
	in = fmt.Sprintf(`	for i := range %[2]s {
		if mask&(1<<%[4]s) == 0 {
			%[2]s[i] = &zeroLanes[0]
			continue
		}
		*(*State)(unsafe.Pointer(&%[1]s[i])) = *states[%[3]s]
		%[2]s[i] = ptrs[%[3]s]
	}
`, rows, ptr, lane, bit(lane))
	out = fmt.Sprintf(`	for i := range %[2]s {
		if mask&(1<<%[4]s) != 0 {
			*states[%[3]s] = *(*State)(unsafe.Pointer(&%[1]s[i]))
		}
	}
`, rows, ptr, lane, bit(lane))
	return in, out
}

// bit is lane as the operand of a shift: in parentheses if a sum.
func bit(lane string) string {
	if strings.Contains(lane, "+") {
		return "(" + lane + ")"
	}
	return lane
}

// engineLane is the engine's lane of the kernel's lane i, first on.
func engineLane(first int) string {
	if first == 0 {
		return "i"
	}
	return fmt.Sprintf("i+%d", first)
}

// Batch records the batch kernel sum<Go>. With iv, it takes the initial
// value and the digest size after kernel.Batch's arguments (one kernel
// serves SHA-224 and SHA-256), and the list is a function of them; every
// batch kernel of a package takes them or none does.
func Batch(k Kernel, iv bool) {
	if len(batches) > 0 && iv != batchIV {
		fmt.Fprintf(os.Stderr, "lanewrap: sum%s: batch kernels with and without an IV\n", k.Go)
		os.Exit(1)
	}
	batches, batchIV = append(batches, k), iv
}

// Write writes the recorded wrappers and lists as package pkg to the
// -lanes file, if one was named, and exits on failure, as avo's Generate
// does. The package provides State, maxBlocks and zeroLanes.
func Write(pkg string) { WriteFor(pkg, "amd64") }

// WriteFor is Write for the kernels of goarch.
func WriteFor(pkg, goarch string) {
	if err := write(pkg, goarch); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}

func write(pkg, goarch string) error {
	if *out == "" {
		return nil
	}
	var b bytes.Buffer
	fmt.Fprintf(&b, "// Code generated by go generate in internal/kernel/%s (internal/kernel/_asm/lanewrap). DO NOT EDIT.\n\n", pkg)
	fmt.Fprintf(&b, "//go:build %s && !purego\n\npackage %s\n\n", goarch, pkg)
	b.WriteString("import (\n")
	if slices.ContainsFunc(wrappers, func(w wrapper) bool { return strings.Contains(w.body, "unsafe.") }) {
		b.WriteString("\t\"unsafe\"\n\n")
	}
	b.WriteString("\t\"github.com/hashlanes/hashlanes/internal/cpu\"\n\t\"github.com/hashlanes/hashlanes/internal/kernel\"\n)\n")

	b.WriteString("\n// laneKernels lists the generated multi-lane kernels, in the order the generator records them.\nvar laneKernels = []kernel.Multi[State]{\n")
	for _, w := range wrappers {
		b.WriteString(w.k.entry("blocks" + w.k.Go))
	}
	b.WriteString("}\n")

	if len(batches) > 0 {
		b.WriteString("\n// batchKernels lists the generated batch kernels, in the order the generator records them.\n")
	}
	switch {
	case len(batches) == 0:
	case batchIV:
		b.WriteString("func batchKernels(iv *byte, size int) []kernel.Batch {\n\treturn []kernel.Batch{\n")
		for _, k := range batches {
			fn := fmt.Sprintf("func(msgs [][]byte, idx []int32, n int, out *byte, nblocks int) {\n\t\tsum%s(msgs, idx, n, out, nblocks, iv, size)\n\t}", k.Go)
			b.WriteString(k.entry(fn))
		}
		b.WriteString("}\n}\n")
	default:
		b.WriteString("var batchKernels = []kernel.Batch{\n")
		for _, k := range batches {
			b.WriteString(k.entry("sum" + k.Go))
		}
		b.WriteString("}\n")
	}

	for _, w := range wrappers {
		fmt.Fprintf(&b, "\n// blocks%s %s\nfunc blocks%s(states *[kernel.MaxLanes]*State, ptrs *[kernel.MaxLanes]*byte, mask uint32, nblocks int) {\n%s}\n",
			w.k.Go, w.comment, w.k.Go, w.body)
	}
	src, err := format.Source(b.Bytes())
	if err != nil {
		return fmt.Errorf("lanewrap: %v\n%s", err, b.Bytes())
	}
	return os.WriteFile(*out, src, 0o644)
}
