module github.com/hashlanes/hashlanes/internal/kernel/_asm

go 1.26.0

require (
	github.com/mmcloughlin/avo v0.5.0
	golang.org/x/arch v0.33.0
)

require golang.org/x/sync v0.23.0 // indirect

require (
	github.com/hashlanes/hashlanes v0.0.0
	golang.org/x/mod v0.41.0 // indirect
	golang.org/x/tools v0.51.0 // indirect
)

