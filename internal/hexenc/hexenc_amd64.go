//go:build !purego

package hexenc

import "github.com/hashlanes/hashlanes/internal/cpu"

//go:generate go run -C ../kernel/_asm ./hexenc -out ../../hexenc/hexenc_amd64.s -stubs ../../hexenc/hexenc_amd64_stubs.go -pkg hexenc

// useAVX2 follows the CPU tier, so HASHLANES_CPU=generic also runs the
// pure-Go loop.
var useAVX2 = haveAVX2 && cpu.Active >= cpu.AVX2

// haveAVX2 says the AVX2 loop is built in.
const haveAVX2 = true
