//go:build !linux

package main

// pin is a no-op where the process cannot bind itself to a CPU.
func pin(cpu int) error { return nil }
