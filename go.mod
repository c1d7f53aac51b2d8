module github.com/hashlanes/hashlanes

go 1.26.0

require (
	github.com/rogpeppe/go-internal v1.16.0
	golang.org/x/crypto v0.58.0
	golang.org/x/sys v0.49.0
	golang.org/x/term v0.47.0
	lukechampine.com/blake3 v1.4.1
)

require (
	github.com/klauspost/cpuid/v2 v2.0.9 // indirect
	golang.org/x/tools v0.26.0 // indirect
)
