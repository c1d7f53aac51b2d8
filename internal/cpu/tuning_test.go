package cpu

import "testing"

// TestTuning pins which microarchitecture's rates a CPU gets: AMD's family
// 19h models by their published ranges, and for any other CPU the nearest
// by instruction set.
func TestTuning(t *testing.T) {
	nearest := Zen3
	if Detected >= AVX512 {
		nearest = Zen4
	}
	for _, c := range []struct {
		family, model uint32
		amd           bool
		want          Microarch
		exact         bool
	}{
		{0x19, 0x01, true, Zen3, true}, // EPYC 7003 (Milan)
		{0x19, 0x21, true, Zen3, true}, // Ryzen 5000 (Vermeer)
		{0x19, 0x50, true, Zen3, true}, // Ryzen 5000 APU (Cezanne)
		{0x19, 0x11, true, Zen4, true}, // EPYC 9004 (Genoa)
		{0x19, 0x61, true, Zen4, true}, // Ryzen 7000 (Raphael)
		{0x19, 0xa0, true, Zen4, true}, // EPYC 97x4 (Bergamo)
		{0x19, 0x90, true, nearest, false},
		{0x1a, 0x02, true, nearest, false}, // Zen 5
		{0x17, 0x31, true, nearest, false}, // Zen 2
		{0x06, 0x8f, false, nearest, false},
		{0x19, 0x01, false, nearest, false}, // not AMD
	} {
		if got, exact := tuning(c.family, c.model, c.amd); got != c.want || exact != c.exact {
			t.Errorf("family %#x model %#x amd %v: %v (exact %v), want %v (exact %v)", c.family, c.model, c.amd, got, exact, c.want, c.exact)
		}
	}
	for m, name := range map[Microarch]string{Zen4: "zen4", Zen3: "zen3", 7: "Microarch(7)"} {
		if m.String() != name {
			t.Errorf("%d.String() = %q, want %q", int(m), m.String(), name)
		}
	}
}
