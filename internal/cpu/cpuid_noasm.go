//go:build !amd64 || purego

package cpu

// Without amd64's assembly there is no CPUID to read: x86 runs the pure-Go
// code, and the identity is empty.

func x86Level() Level { return Generic }

func hasSHA() bool { return false }

func x86Names() []string { return nil }

func identify() Identity { return Identity{} }

func brand() string { return "" }
