package main

import "testing"

func TestSpreadGivesTheMedianAndTheRange(t *testing.T) {
	for _, c := range []struct {
		values []float64
		want   string
	}{
		{nil, "–"},
		{[]float64{900}, "900 ms"},
		{[]float64{3200, 900, 1500}, "1.50 s (900 ms–3.20 s)"},
		{[]float64{1000, 2000, 4000, 3000}, "2.50 s (1.00 s–4.00 s)"},
	} {
		if got := spreadMs(c.values); got != c.want {
			t.Errorf("spreadMs(%v) = %q, want %q", c.values, got, c.want)
		}
	}
	if got := spreadMB([]float64{2.2e6, 2.2e6}); got != "2.20 MB" {
		t.Errorf("spreadMB = %q, want 2.20 MB", got)
	}
}

func TestNetworkProfilesAreIssue22s(t *testing.T) {
	want := map[string][2]float64{"Loopback": {0, 0}, "10Mbit": {1.25e6, 40}, "5Mbit": {625e3, 70}, "10MbitLesson": {1.25e6, 40}}
	if len(networkProfiles) != len(want) {
		t.Fatalf("%d profiles, want %d", len(networkProfiles), len(want))
	}
	for _, p := range networkProfiles {
		if w, ok := want[p.name]; !ok || w != [2]float64{p.bytesPerSec, p.latencyMs} {
			t.Errorf("profile %s: %v bytes/s, %v ms; want %v", p.name, p.bytesPerSec, p.latencyMs, w)
		}
	}
}
