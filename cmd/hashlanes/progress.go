package main

import (
	"github.com/hashlanes/hashlanes/cmd/hashlanes/internal/filesum"
	"github.com/hashlanes/hashlanes/cmd/hashlanes/internal/progress"
)

// newProgress starts the progress line for items, where one is wanted
// (nil otherwise: its methods do nothing).
func (c *command) newProgress(items []filesum.Item) *progress.Line {
	if !progress.Wanted(c.Progress, c.stderr) {
		return nil
	}
	total := int64(0)
	for _, it := range items {
		if it.Size < 0 {
			total = -1
			break
		}
		total += it.Size
	}
	p := progress.New(c.stderr, len(items), total)
	if c.out.EachLine { // results go to the terminal the line is on
		c.out.BeforeFlush = p.Clear
	}
	c.clearStatus = p.Clear
	return p
}
