module github.com/hashlanes/hashlanes

go 1.26.0

require (
	golang.org/x/crypto v0.58.0
	golang.org/x/sys v0.49.0
	lukechampine.com/blake3 v1.4.1
)

require github.com/klauspost/cpuid/v2 v2.2.10 // indirect
