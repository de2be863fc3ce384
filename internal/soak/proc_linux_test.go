//go:build soak

package soak

import "syscall"

// childAttr has the kernel kill the server if the test process dies first, so an interrupted
// run leaves no server holding the port.
func childAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
}
