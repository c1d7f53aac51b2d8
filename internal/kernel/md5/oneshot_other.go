//go:build !amd64 || purego

package md5

// AppendSumOwn has no kernel of hashlanes' own to run in this build: ok
// is false.
func AppendSumOwn(dst, msg []byte) (out []byte, ok bool) { return dst, false }
