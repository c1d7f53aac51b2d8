// Package highvec keeps the vector registers the allocator hands out in
// chosen kernels among registers 16-31, which only EVEX forms reach.
//
// A kernel that runs AVX lanes beside the SHA extensions needs it: the SHA
// instructions exist only in legacy SSE encoding, and a legacy SSE
// instruction after a 256-bit write to any of registers 0-15 costs a
// transition of the whole register state, two orders of magnitude slower
// (docs/kernel-design.md, "Vector registers beside the SHA extensions").
// Writes to registers 16-31 leave that state alone (their upper halves are
// not tracked for SSE), and VEX-encoded 128-bit forms on 0-15 clear the
// halves they write.
package highvec

import (
	"fmt"

	"github.com/mmcloughlin/avo/ir"
	"github.com/mmcloughlin/avo/pass"
	"github.com/mmcloughlin/avo/reg"
)

// low is vector registers 0-15, whole.
var low = []reg.Physical{
	reg.Z0, reg.Z1, reg.Z2, reg.Z3, reg.Z4, reg.Z5, reg.Z6, reg.Z7,
	reg.Z8, reg.Z9, reg.Z10, reg.Z11, reg.Z12, reg.Z13, reg.Z14, reg.Z15,
}

// For makes the functions named allocate their virtual vector registers
// among 16-31: it replaces avo's compile pipeline with the same passes
// (as of avo v0.5.0) and one more between liveness and allocation, which
// marks registers 0-15 live wherever such a function defines a virtual
// vector register, so that the allocator sees each of them conflict with
// all sixteen. Physical registers the function names itself are left
// where they are. Call it before Generate.
func For(names ...string) {
	chosen := map[string]bool{}
	for _, n := range names {
		chosen[n] = true
	}
	reserve := func(fn *ir.Function) error {
		if !chosen[fn.Name] {
			return nil
		}
		delete(chosen, fn.Name)
		for _, i := range fn.Instructions() {
			for _, r := range i.OutputRegisters() {
				if r.Kind() == reg.KindVector && r.ID().IsVirtual() {
					for _, p := range low {
						i.LiveOut.AddRegister(p)
					}
				}
			}
		}
		return nil
	}
	pass.Compile = pass.Concat(
		pass.Verify,
		pass.FunctionPass(pass.PruneJumpToFollowingLabel),
		pass.FunctionPass(pass.PruneDanglingLabels),
		pass.FunctionPass(pass.LabelTarget),
		pass.FunctionPass(pass.CFG),
		pass.InstructionPass(pass.ZeroExtend32BitOutputs),
		pass.FunctionPass(pass.Liveness),
		pass.FunctionPass(reserve),
		pass.FunctionPass(pass.AllocateRegisters),
		pass.FunctionPass(pass.BindRegisters),
		pass.FunctionPass(pass.VerifyAllocation),
		pass.FunctionPass(pass.EnsureBasePointerCalleeSaved),
		pass.Func(pass.IncludeTextFlagHeader),
		pass.FunctionPass(pass.PruneSelfMoves),
		pass.FunctionPass(pass.RequiredISAExtensions),
		pass.Func(func(*ir.File) error {
			for n := range chosen {
				return fmt.Errorf("highvec: no function %s", n)
			}
			return nil
		}),
	)
}
