//go:build !amd64

package cpu

func x86Level() Level { return Generic }

func hasSHA() bool { return false }

func x86Names() []string { return nil }
