//go:build !amd64 || purego

package cpu

// Without amd64's assembly there is no CPUID to read the identity with:
// it is empty, and the tuning falls back to its default prior.

func identify() Identity { return Identity{} }

// withAsm is whether the package's assembly is built.
const withAsm = false

func brand() string { return "" }
