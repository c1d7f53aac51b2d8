//go:build amd64 && purego && (!go1.26 || go1.27)

package cpu

// x86AtStart knows nothing without assembly to read CPUID with, where this
// Go version's layout of the runtime's table is not known either: the
// pure-Go build runs the generic tier.
func x86AtStart() x86Features { return x86Features{} }
