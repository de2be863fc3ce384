package pgembed

import (
	"io/fs"
	"syscall"
)

// sysProcAttr puts a server program in a process group of its own, so a Ctrl-C in the terminal
// reaches this process, which stops the server in order, and not the server directly. If this
// process dies without stopping it, the kernel asks the server for a fast shutdown.
func sysProcAttr(acct *account) *syscall.SysProcAttr {
	attr := &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGINT}
	if acct != nil {
		attr.Credential = &syscall.Credential{Uid: uint32(acct.uid), Gid: uint32(acct.gid)}
	}
	return attr
}

// fileOwner is the uid and gid of a file.
func fileOwner(fi fs.FileInfo) (uid, gid int, ok bool) {
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return 0, 0, false
	}
	return int(st.Uid), int(st.Gid), true
}
