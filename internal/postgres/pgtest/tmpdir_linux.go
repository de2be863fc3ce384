package pgtest

import "syscall"

// tmpfsMinFree is the room a test cluster may come to need: the cluster itself, the template,
// the databases of parallel tests and the WAL between checkpoints.
const tmpfsMinFree = 1 << 30

// clusterParent is where the throwaway cluster goes: /dev/shm when it is roomy, since on a
// memory file system creating a test database takes milliseconds where a disk may take a
// third of a second; otherwise the usual temporary folder.
func clusterParent() string {
	var st syscall.Statfs_t
	if err := syscall.Statfs("/dev/shm", &st); err != nil || st.Bavail*uint64(st.Bsize) < tmpfsMinFree {
		return ""
	}
	return "/dev/shm"
}
