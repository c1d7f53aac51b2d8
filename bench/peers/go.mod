module github.com/hashlanes/hashlanes/bench/peers

go 1.26.0

require (
	github.com/hashlanes/hashlanes v0.0.0
	github.com/minio/md5-simd v1.1.2
)

require (
	github.com/klauspost/cpuid/v2 v2.0.1 // indirect
	golang.org/x/sys v0.49.0 // indirect
)

replace github.com/hashlanes/hashlanes => ../..
