package main

import (
	"os"
	"strconv"

	"golang.org/x/sys/unix"
)

// pin binds every thread of the process to cpu; threads made later inherit
// it from the thread that makes them.
func pin(cpu int) error {
	var set unix.CPUSet
	set.Set(cpu)
	tasks, err := os.ReadDir("/proc/self/task")
	if err != nil {
		return err
	}
	for _, t := range tasks {
		tid, err := strconv.Atoi(t.Name())
		if err != nil {
			continue
		}
		if err := unix.SchedSetaffinity(tid, &set); err != nil {
			return err
		}
	}
	return nil
}
