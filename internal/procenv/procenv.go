// Package procenv reads the variables hashlanes takes at start
// (HASHLANES_CPU, HASHLANES_TUNING) without os.Getenv's first-call cost.
//
// The first os.Getenv of a process copies the whole environment into a map
// (an allocation or two a variable, 40-odd in a login shell, hundreds in
// some CI jobs), and hashlanes' inits were the first to call it in a
// program that otherwise never does: about 1% of a program that hashes one
// small file (docs/engine.md, "Start-up"). Where the runtime's copy of the
// environment can be had (environ_runtime.go), Lookup scans it instead.
package procenv

// Get is Lookup's value alone: the variable's value, empty if unset.
func Get(key string) string {
	v, _ := Lookup(key)
	return v
}
