//go:build !unix

package safefile

import "os"

// Without O_NONBLOCK and O_NOFOLLOW the checks after open still refuse a
// non-regular file; opening one may block.
const (
	readFlags = os.O_RDONLY
	dirFlags  = os.O_RDONLY
)
