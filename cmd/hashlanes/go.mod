module github.com/hashlanes/hashlanes/cmd/hashlanes

go 1.26.0

require (
	github.com/hashlanes/hashlanes v0.1.0
	github.com/rogpeppe/go-internal v1.16.0
	github.com/zeebo/xxh3 v1.1.0
	golang.org/x/perf v0.0.0-20260908200009-22c9c6c9d4da
	golang.org/x/sys v0.49.0
	golang.org/x/term v0.47.0
	gonum.org/v1/plot v0.17.0
)
