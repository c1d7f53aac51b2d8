package procenv

import (
	"os"
	"testing"
)

// TestLookupAgreesWithOS: every variable of the process's start reads as
// os.LookupEnv reads it, and an unset one is unset.
func TestLookupAgreesWithOS(t *testing.T) {
	env := os.Environ()
	if len(env) == 0 {
		t.Skip("an empty environment")
	}
	for _, kv := range env {
		for i := 1; i < len(kv); i++ {
			if kv[i] == '=' {
				key := kv[:i]
				got, ok := Lookup(key)
				want, wantOK := os.LookupEnv(key)
				if got != want || ok != wantOK {
					t.Errorf("Lookup(%q) = %q, %v; os.LookupEnv: %q, %v", key, got, ok, want, wantOK)
				}
				break
			}
		}
	}
	if v, ok := Lookup("HASHLANES_NO_SUCH_VARIABLE_EVER"); ok {
		t.Errorf("an unset variable read %q", v)
	}
	// A prefix of a set variable's name is not that variable.
	if len(env[0]) > 2 {
		if _, ok := Lookup(env[0][:1]); ok && os.Getenv(env[0][:1]) == "" {
			t.Errorf("Lookup(%q) matched a longer name", env[0][:1])
		}
	}
}
