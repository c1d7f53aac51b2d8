//go:build !(amd64 || arm64) || purego

package sha512

import "github.com/hashlanes/hashlanes/internal/kernel"

var singles = []kernel.Single[State]{{Name: "generic", Reference: true, Fn: blockGeneric}}
var multis = []kernel.Multi[State]{generic}

func batches(*State, int) []kernel.Batch { return nil }
