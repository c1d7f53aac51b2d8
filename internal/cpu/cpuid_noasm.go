//go:build !amd64 || purego

package cpu

func hasSHA() bool { return false }

func identify() Identity { return Identity{} }

func brand() string { return "" }
