package main

import (
	"slices"
	"strings"
)

// differing names the files that differ between two snapshots, or that
// only one of them holds.
func differing(got, want map[string][32]byte) string {
	var names []string
	for name, sum := range want {
		if g, ok := got[name]; !ok || g != sum {
			names = append(names, name)
		}
	}
	for name := range got {
		if _, ok := want[name]; !ok {
			names = append(names, name)
		}
	}
	slices.Sort(names)
	return strings.Join(names, ", ")
}
