package main

import "testing"

// TestNewestRequests checks that `airlock history -n N` counts requests, not
// actions: a plan of three actions counts once, and the history is cut at a
// request's edge, never inside it.
func TestNewestRequests(t *testing.T) {
	entries := []historyRecord{{Request: "c", Index: 2}, {Request: "c", Index: 1}, {Request: "c", Index: 0}, {Request: "b"}, {Request: "a", Index: 1}, {Request: "a"}}
	for _, tt := range []struct{ n, want int }{{1, 3}, {2, 4}, {3, 6}, {10, 6}} {
		if got := newestRequests(entries, tt.n); got != tt.want {
			t.Errorf("newestRequests(%d) = %d, want %d", tt.n, got, tt.want)
		}
	}
	if got := newestRequests(nil, 5); got != 0 {
		t.Errorf("an empty history: %d", got)
	}
}
