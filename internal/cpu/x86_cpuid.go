//go:build amd64 && !purego && (!go1.26 || go1.27)

package cpu

// x86AtStart reads CPUID: this Go version's layout of the runtime's
// feature table is not known here (see x86_runtime.go).
func x86AtStart() x86Features { return readX86() }
