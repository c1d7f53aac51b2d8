//go:build unix && go1.26 && !go1.27

package procenv

import _ "unsafe" // for go:linkname

// runtimeEnvs returns a copy of the runtime's slice of the environment the
// process started with: package syscall's own source of it, implemented in
// the runtime and marked there with go:linkname. One allocation, no map.
// Pinned to the Go version it was checked on, like ../cpu's table.
//
//go:linkname runtimeEnvs syscall.runtime_envs
func runtimeEnvs() []string

// start is the process's environment, copied once for every Lookup.
var start = runtimeEnvs()

// Lookup returns the value of the variable named key in the environment
// the process started with, and whether it is set; the first of several
// entries of one name wins, as in os.Getenv. It is for package inits,
// before a program could have called os.Setenv: later changes are not
// seen where the runtime's copy is read.
func Lookup(key string) (string, bool) {
	for _, kv := range start {
		if len(kv) > len(key) && kv[len(key)] == '=' && kv[:len(key)] == key {
			return kv[len(key)+1:], true
		}
	}
	return "", false
}
