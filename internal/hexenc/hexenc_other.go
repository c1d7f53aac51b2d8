//go:build !amd64 || purego

package hexenc

const useAVX2, haveAVX2 = false, false

func expandAVX2(dst, src *byte, n int) { panic("unreachable") }
