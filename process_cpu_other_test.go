//go:build !unix

package hashlanes

import "time"

// processCPU is 0 where getrusage is not available: BenchmarkCalibrate
// then reports wall time only.
func processCPU() time.Duration { return 0 }
