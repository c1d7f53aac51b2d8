//go:build !amd64 || purego

package sha512

import "github.com/hashlanes/hashlanes/internal/cpu"

// AppendSumOwn has no kernel of hashlanes' own to run in this build: ok
// is false.
func AppendSumOwn(dst []byte, init *State, size int, msg []byte, l cpu.Level) (out []byte, ok bool) {
	return dst, false
}
