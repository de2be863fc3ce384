//go:build !linux && !darwin

package argon2id

// workArea is memory blocks on the Go heap, as in x/crypto, where no mapping is made.
func workArea(memory uint32) (B []block, free func()) {
	return make([]block, memory), func() {}
}
