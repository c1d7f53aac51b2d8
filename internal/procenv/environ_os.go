//go:build !unix || !go1.26 || go1.27

package procenv

import "os"

// Lookup is os.LookupEnv where the runtime's copy is not read.
func Lookup(key string) (string, bool) { return os.LookupEnv(key) }
