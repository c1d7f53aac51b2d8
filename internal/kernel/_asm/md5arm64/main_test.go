package main

import (
	"encoding/binary"
	"fmt"
	"testing"

	"golang.org/x/arch/arm64/arm64asm"
)

// TestORNEncoding checks the one instruction written as a WORD against
// x/arch's arm64 disassembler, for every register in each position.
func TestORNEncoding(t *testing.T) {
	for r := range 32 {
		for _, ops := range [][3]int{{r, 1, 2}, {3, r, 4}, {5, 6, r}} {
			d, n, m := ops[0], ops[1], ops[2]
			var word [4]byte
			binary.LittleEndian.PutUint32(word[:], encodeORN(d, n, m))
			inst, err := arm64asm.Decode(word[:])
			if err != nil {
				t.Fatalf("ORN V%d, V%d, V%d: %v", d, n, m, err)
			}
			want := fmt.Sprintf("orn v%d.16b, v%d.16b, v%d.16b", d, n, m)
			if got := arm64asm.GNUSyntax(inst); got != want {
				t.Errorf("encodeORN(%d, %d, %d) disassembles as %q, want %q", d, n, m, got, want)
			}
		}
	}
}
