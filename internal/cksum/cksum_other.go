//go:build !amd64 || purego

package cksum

var useFold, haveFold = false, false

func foldPCLMUL(crc uint32, p *byte, n int, out *[16]byte) { panic("unreachable") }
