//go:build !(amd64 || arm64) || purego

package md5

import "github.com/hashlanes/hashlanes/internal/kernel"

func singles() []kernel.Single[State] {
	return []kernel.Single[State]{{Name: "generic", Reference: true, Fn: blockGeneric}}
}

func multis() []kernel.Multi[State] {
	return []kernel.Multi[State]{generic()}
}

var batches []kernel.Batch
