// Command cpuid generates internal/cpu's CPUID instruction, for the feature
// bits golang.org/x/sys/cpu does not report on x86 (SHA-NI).
package main

import (
	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/reg"
)

func main() {
	ConstraintExpr("amd64,!purego")
	TEXT("cpuid", NOSPLIT, "func(leaf, sub uint32) (a, b, c, d uint32)")
	Doc("cpuid executes CPUID with EAX=leaf and ECX=sub.")
	Load(Param("leaf"), EAX)
	Load(Param("sub"), ECX)
	CPUID()
	Store(EAX, Return("a"))
	Store(EBX, Return("b"))
	Store(ECX, Return("c"))
	Store(EDX, Return("d"))
	RET()
	Generate()
}
