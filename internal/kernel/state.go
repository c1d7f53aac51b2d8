package kernel

import "errors"

// The errors of restoring a hasher's saved state (UnmarshalBinary), the
// same from every hasher whatever serves it.
var (
	ErrStateID   = errors.New("invalid hash state identifier")
	ErrStateSize = errors.New("invalid hash state size")
)
