//go:build !amd64 || purego

package sha1

// AppendSumSHANI has no SHA-NI kernel to run in this build: ok is false.
func AppendSumSHANI(dst []byte, init *State, size int, msg []byte) (out []byte, ok bool) {
	return dst, false
}
