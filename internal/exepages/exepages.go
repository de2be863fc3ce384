// Package exepages holds what the process does with its own executable's pages in memory.
package exepages

// Released is what a call to Release gave back: the read-only mappings of the executable it
// dropped, and how many bytes of address space they span.
type Released struct {
	Mappings int
	Bytes    int64
}
