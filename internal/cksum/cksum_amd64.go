//go:build !purego

package cksum

import (
	"golang.org/x/sys/cpu"

	hlcpu "github.com/hashlanes/hashlanes/internal/cpu"
)

//go:generate go run -C ../kernel/_asm ./crc -out ../../cksum/crc_amd64.s -stubs ../../cksum/crc_amd64_stubs.go -pkg cksum

// useFold follows the CPU tier, so HASHLANES_CPU=generic runs the table.
var useFold = haveFold && hlcpu.Active > hlcpu.Generic

var haveFold = cpu.X86.HasPCLMULQDQ && cpu.X86.HasSSSE3
