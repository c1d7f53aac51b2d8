//go:build !amd64 || purego

package cpu

func hasSHA() bool { return false }

func amdFamilyModel() (family, model uint32, amd bool) { return 0, 0, false }
