module github.com/hashlanes/hashlanes/bench/upload

go 1.26.0

require (
	github.com/hashlanes/hashlanes v0.1.0
	golang.org/x/sys v0.49.0
)
