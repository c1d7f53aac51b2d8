package cpu

import "testing"

// TestTuning pins which microarchitecture's rates a CPU gets: AMD's family
// 19h models by their published ranges, Intel's Xeons with AMX by that
// feature, and any other CPU the nearest by instruction set.
func TestTuning(t *testing.T) {
	amd := func(family, model uint32) Identity { return Identity{AMD: true, Family: family, Model: model} }
	intel := func(model uint32, amx bool) Identity { return Identity{Intel: true, Family: 6, Model: model, AMX: amx} }
	for _, c := range []struct {
		id       Identity
		detected Level
		want     Microarch
		exact    bool
	}{
		{amd(0x19, 0x01), AVX2, Zen3, true},   // EPYC 7003 (Milan)
		{amd(0x19, 0x21), AVX2, Zen3, true},   // Ryzen 5000 (Vermeer)
		{amd(0x19, 0x50), AVX2, Zen3, true},   // Ryzen 5000 APU (Cezanne)
		{amd(0x19, 0x11), AVX512, Zen4, true}, // EPYC 9004 (Genoa)
		{amd(0x19, 0x61), AVX512, Zen4, true}, // Ryzen 7000 (Raphael)
		{amd(0x19, 0xa0), AVX512, Zen4, true}, // EPYC 97x4 (Bergamo)
		{amd(0x19, 0x90), AVX512, Zen4, false},
		{amd(0x1a, 0x02), AVX512, Zen4, false},                           // Zen 5
		{amd(0x17, 0x31), AVX2, Zen3, false},                             // Zen 2
		{Identity{Family: 0x19, Model: 0x01}, AVX2, Zen3, false},         // not AMD
		{intel(0x8f, true), AVX512, GoldenCove, true},                    // Sapphire Rapids
		{intel(0xcf, true), AVX512, GoldenCove, true},                    // Emerald Rapids
		{intel(0xad, true), AVX512, GoldenCove, true},                    // Granite Rapids
		{intel(0xa7, true), AVX512, GoldenCove, true},                    // as a hypervisor reports one
		{intel(0x8f, true), AVX2, Zen3, false},                           // AVX-512 off: no rates of its own
		{intel(0x6a, false), AVX512, Zen4, false},                        // Ice Lake server
		{intel(0x97, false), AVX2, Zen3, false},                          // Alder Lake
		{Identity{AMD: true, Family: 6, AMX: true}, AVX512, Zen4, false}, // AMX, but not Intel
	} {
		if got, exact := tuning(c.id, c.detected); got != c.want || exact != c.exact {
			t.Errorf("%+v at %v: %v (exact %v), want %v (exact %v)", c.id, c.detected, got, exact, c.want, c.exact)
		}
	}
	for m, name := range map[Microarch]string{Zen4: "zen4", Zen3: "zen3", GoldenCove: "goldencove", 7: "Microarch(7)"} {
		if m.String() != name {
			t.Errorf("%d.String() = %q, want %q", int(m), m.String(), name)
		}
	}
}
