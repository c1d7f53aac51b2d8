//go:build !race

package hashlanes

const raceEnabled = false
