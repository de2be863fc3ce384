//go:build !unix

package pgembed

import (
	"io/fs"
	"syscall"
)

// sysProcAttr has nothing to set where there are no process groups or root.
func sysProcAttr(*account) *syscall.SysProcAttr { return nil }

// fileOwner is unknown where files have no unix owner.
func fileOwner(fs.FileInfo) (uid, gid int, ok bool) { return 0, 0, false }
