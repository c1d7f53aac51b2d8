//go:build !amd64 || purego

package cpu

func hasSHA() bool { return false }
