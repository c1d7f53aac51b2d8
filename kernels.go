// Shared by the algorithms on the engine: the kernels a level runs.

package hashlanes

import (
	"github.com/hashlanes/hashlanes/internal/cpu"
	"github.com/hashlanes/hashlanes/internal/engine"
	"github.com/hashlanes/hashlanes/internal/kernel"
)

// kernelsAt lists the kernels that run at level l: the best
// single-stream kernel the level allows, and every multi-lane and batch
// kernel it allows but the pure-Go reference. Which of them a round runs
// is the tuning's choice.
func kernelsAt[S any](singles []kernel.Single[S], multis []kernel.Multi[S], batches []kernel.Batch, l cpu.Level) engine.Kernels[S] {
	// Room for every kernel at once: a fresh process's first server makes
	// these lists, and growing them an append at a time was a handful of
	// allocations of its first use.
	k := engine.Kernels[S]{Multi: make([]kernel.Multi[S], 0, len(multis)), Batch: make([]kernel.Batch, 0, len(batches))}
	k.Single, _ = kernel.Best(singles, l)
	for _, m := range multis {
		if !m.Reference && m.Usable(l) {
			k.Multi = append(k.Multi, m)
		}
	}
	for _, b := range batches {
		if b.Usable(l) {
			k.Batch = append(k.Batch, b)
		}
	}
	return k
}
