// Command cpuid generates internal/cpu's CPUID and XGETBV instructions: the
// package reads the few feature bits the kernels need itself, in fewer
// CPUIDs than a general detector (docs/engine.md, "Start-up").
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

	TEXT("xgetbv0", NOSPLIT, "func() (lo, hi uint32)")
	Doc("xgetbv0 reads XCR0, the register states the OS saves; only where CPUID says OSXSAVE.")
	XORL(ECX, ECX)
	XGETBV()
	Store(EAX, Return("lo"))
	Store(EDX, Return("hi"))
	RET()

	Generate()
}
