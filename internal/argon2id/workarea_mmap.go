//go:build linux || darwin

package argon2id

import (
	"syscall"
	"unsafe"
)

// workArea is memory blocks of zeroed memory mapped from the operating system, outside the Go
// heap; free unmaps them, so the process holds them only while a derivation runs. The blocks
// hold no pointers, so the collector need not see them. Where the mapping fails, the heap
// serves, as in x/crypto.
func workArea(memory uint32) (B []block, free func()) {
	size := int(memory) * blockLength * 8
	mem, err := syscall.Mmap(-1, 0, size, syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_PRIVATE|syscall.MAP_ANON)
	if err != nil {
		return make([]block, memory), func() {}
	}
	// Munmap fails only for a range that is not a mapping, which this one is.
	return unsafe.Slice((*block)(unsafe.Pointer(unsafe.SliceData(mem))), memory), func() { _ = syscall.Munmap(mem) }
}
