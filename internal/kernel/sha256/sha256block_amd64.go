//go:build !purego

package sha256

import (
	"github.com/hashlanes/hashlanes/internal/cpu"
	"github.com/hashlanes/hashlanes/internal/kernel"
)

//go:generate go run -C ../_asm ./sha256 -out ../sha256/sha256block_amd64.s -stubs ../sha256/sha256block_amd64_stubs.go -pkg sha256

var singles = []kernel.Single[State]{
	{Name: "generic", Level: cpu.Generic, Fn: blockGeneric},
	{Name: "shani", Level: cpu.Generic, Needs: cpu.SHA, Fn: blockSHANIState},
}

var multis = []kernel.Multi[State]{generic}

func blockSHANIState(s *State, p []byte) { blockSHANI((*[8]uint32)(s), p) }
