package report

import (
	"bytes"
	"fmt"
	"os/exec"
	"strconv"
	"strings"
)

// pythonScript times hashlib over the corpus read from stdin (one message
// per line) and prints one line of nanoseconds per pass for each
// repetition, after a warm-up pass.
const pythonScript = `
import hashlib, sys, time
alg, reps = sys.argv[1], int(sys.argv[2])
paths = sys.stdin.buffer.read().split(b"\n")[:-1]
f = getattr(hashlib, alg)
for p in paths:
    f(p).digest()
out = []
for _ in range(reps):
    t = time.perf_counter_ns()
    for p in paths:
        f(p).digest()
    out.append(time.perf_counter_ns() - t)
print(" ".join(map(str, out)))
`

// pythonSmall measures the small-messages row through Python's hashlib.
func pythonSmall(python string, r *Row, paths [][]byte) error {
	var in bytes.Buffer
	for _, p := range paths {
		in.Write(p)
		in.WriteByte('\n')
	}
	cmd := exec.Command(python, "-c", pythonScript, r.Alg, "5")
	cmd.Stdin = &in
	out, err := cmd.Output()
	if err != nil {
		return fmt.Errorf("python hashlib %s: %v", r.Alg, err)
	}
	r.Samples = r.Samples[:0]
	for f := range strings.FieldsSeq(string(out)) {
		ns, err := strconv.ParseFloat(f, 64)
		if err != nil {
			return fmt.Errorf("python hashlib %s: %q", r.Alg, out)
		}
		r.Samples = append(r.Samples, ns)
	}
	r.Iterations = 1
	return nil
}
