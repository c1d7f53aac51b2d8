//go:build !arm64

package cpu

func arm64Level() Level { return Generic }

func arm64Features() Feature { return 0 }

func arm64Names() []string { return nil }
