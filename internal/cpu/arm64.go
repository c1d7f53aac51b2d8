//go:build arm64

package cpu

// On arm64 the features come from the kernel's hardware capabilities
// (AT_HWCAP), which golang.org/x/sys/cpu reads without trapping.
import "golang.org/x/sys/cpu"

func arm64Level() Level {
	if cpu.ARM64.HasASIMD {
		return NEON
	}
	return Generic
}

func arm64Features() Feature {
	var f Feature
	if cpu.ARM64.HasSHA1 && cpu.ARM64.HasSHA2 {
		f |= SHA
	}
	if cpu.ARM64.HasSHA512 {
		f |= SHA512
	}
	return f
}

func arm64Names() []string {
	a := &cpu.ARM64
	var f []string
	for _, c := range []struct {
		has  bool
		name string
	}{
		{a.HasASIMD, "asimd"}, {a.HasSHA1, "sha1"}, {a.HasSHA2, "sha2"}, {a.HasSHA512, "sha512"}, {a.HasSVE, "sve"},
	} {
		if c.has {
			f = append(f, c.name)
		}
	}
	return f
}
