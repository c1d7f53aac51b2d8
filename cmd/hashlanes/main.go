// Command hashlanes reports what the hashlanes engine runs on this machine.
package main

import (
	"fmt"
	"io"
	"os"
	"runtime"
	"runtime/debug"
	"strings"

	"github.com/hashlanes/hashlanes"
)

func main() { os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr)) }

const usage = `usage: hashlanes <command>

commands:
  version    the build, this CPU's features and the kernel each algorithm runs
`

func run(args []string, _ io.Reader, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		fmt.Fprint(stderr, usage)
		return 2
	}
	switch args[0] {
	case "version":
		if len(args) > 1 {
			fmt.Fprintf(stderr, "hashlanes version: unexpected argument %q\n", args[1])
			return 2
		}
		version(stdout, stderr)
		return 0
	case "help", "-h", "-help", "--help":
		fmt.Fprint(stdout, usage)
		return 0
	}
	fmt.Fprintf(stderr, "hashlanes: unknown command %q\n%s", args[0], usage)
	return 2
}

func version(stdout, stderr io.Writer) {
	v := "(devel)"
	if bi, ok := debug.ReadBuildInfo(); ok && bi.Main.Version != "" {
		v = bi.Main.Version
	}
	fmt.Fprintf(stdout, "hashlanes %s %s %s/%s\n", v, runtime.Version(), runtime.GOOS, runtime.GOARCH)
	fmt.Fprintf(stdout, "cpu: %s (detected %s); features: %s\n",
		hashlanes.ActiveCPU(), hashlanes.DetectedCPU(), strings.Join(hashlanes.CPUFeatures(), " "))
	if err := hashlanes.CPUEnvError(); err != nil {
		fmt.Fprintln(stderr, err)
	}
	for _, a := range hashlanes.Algorithms() {
		fmt.Fprintf(stdout, "%-11s %s\n", a.String()+":", hashlanes.DefaultServer(a).Kernel())
	}
}
