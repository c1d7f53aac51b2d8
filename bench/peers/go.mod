module github.com/hashlanes/hashlanes/bench/peers

go 1.26.0

require (
	github.com/hashlanes/hashlanes v0.0.0
	github.com/minio/md5-simd v1.1.2
	github.com/minio/sha256-simd v1.0.1
	golang.org/x/sys v0.49.0
)

require (
	github.com/klauspost/cpuid/v2 v2.2.10 // indirect
	golang.org/x/crypto v0.58.0 // indirect
	lukechampine.com/blake3 v1.4.1 // indirect
)

