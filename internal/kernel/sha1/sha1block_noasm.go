//go:build !(amd64 || arm64) || purego

package sha1

import "github.com/hashlanes/hashlanes/internal/kernel"

var singles = []kernel.Single[State]{{Name: "generic", Reference: true, Fn: blockGeneric}}

var multis = []kernel.Multi[State]{generic}

var batches []kernel.Batch
