//go:build unix

package safefile

import (
	"os"
	"syscall"
)

const (
	readFlags = os.O_RDONLY | syscall.O_NONBLOCK | syscall.O_NOFOLLOW
	dirFlags  = readFlags | syscall.O_DIRECTORY
)
