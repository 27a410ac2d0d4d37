package core

import (
	"slices"
	"testing"
)

// A producer's view lists the wire faults still to hit its requests,
// counted from its next request, so that the page can say one is armed;
// a fault that has hit all its requests leaves the list.
func TestProducerViewListsPendingFaults(t *testing.T) {
	l := NewPartitionedLog(1)
	if err := l.CreateTopic("orders", 1, nil); err != nil {
		t.Fatal(err)
	}
	if err := l.NewProducer("p", nil); err != nil {
		t.Fatal(err)
	}
	faults := func() []PendingFault { return l.Producers()[0].Faults }
	if got := faults(); len(got) != 0 {
		t.Fatalf("faults before any: %+v", got)
	}
	if err := l.AddWireFault("p", LoseResponse, 0, 1); err != nil {
		t.Fatal(err)
	}
	if err := l.AddWireFault("p", LoseRequest, 2, 3); err != nil {
		t.Fatal(err)
	}
	want := []PendingFault{{LoseResponse, 0, 1}, {LoseRequest, 2, 3}}
	if got := faults(); !slices.Equal(got, want) {
		t.Fatalf("pending faults %+v, want %+v", got, want)
	}
	// One record: its first request's answer is lost, its retry lands;
	// the second fault's window moves two requests nearer.
	if _, err := l.ProduceAs("p", ProduceRequest{Topic: "orders", Partition: -1}, []string{"a"}, 1); err != nil {
		t.Fatal(err)
	}
	want = []PendingFault{{LoseRequest, 0, 3}}
	if got := faults(); !slices.Equal(got, want) {
		t.Fatalf("after one record (2 requests), pending faults %+v, want %+v", got, want)
	}
	for range 10 {
		if err := l.AddWireFault("p", LoseResponse, 50, 1); err != nil {
			t.Fatal(err)
		}
	}
	if got := faults(); len(got) != MaxFaultsShown {
		t.Errorf("%d pending faults shown, want the first %d", len(got), MaxFaultsShown)
	}
}
