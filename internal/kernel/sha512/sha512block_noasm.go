//go:build !(amd64 || arm64) || purego

package sha512

import "github.com/hashlanes/hashlanes/internal/kernel"

func singles() []kernel.Single[State] {
	return []kernel.Single[State]{{Name: "generic", Reference: true, Fn: blockGeneric}}
}
func multis() []kernel.Multi[State] {
	return []kernel.Multi[State]{generic()}
}

func batches(*State, int) []kernel.Batch { return nil }
