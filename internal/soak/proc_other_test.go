//go:build soak && !linux

package soak

import "syscall"

// childAttr is empty where the kernel cannot tie the server's life to the test process.
func childAttr() *syscall.SysProcAttr { return nil }
