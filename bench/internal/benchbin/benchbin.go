// Package benchbin builds the binaries the benchmark harnesses drive.
package benchbin

import (
	"fmt"
	"os/exec"
	"path/filepath"
)

// Build builds each named command of ./cmd (kgc, kgmcp) into dir and returns
// the binaries' paths in the same order.
func Build(dir string, cmds ...string) ([]string, error) {
	out := make([]string, len(cmds))
	for i, c := range cmds {
		out[i] = filepath.Join(dir, c)
		if b, err := exec.Command("go", "build", "-o", out[i], "./cmd/"+c).CombinedOutput(); err != nil {
			return nil, fmt.Errorf("go build ./cmd/%s: %v\n%s", c, err, b)
		}
	}
	return out, nil
}
