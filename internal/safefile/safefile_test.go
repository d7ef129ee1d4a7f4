//go:build unix

package safefile

import (
	"errors"
	"os"
	"path/filepath"
	"syscall"
	"testing"
)

func TestOpenRefusesWhatIsNotARegularFile(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "ok.json"), []byte("{}"), 0o644)
	os.WriteFile(filepath.Join(dir, "big.json"), make([]byte, 100), 0o644)
	os.Mkdir(filepath.Join(dir, "sub"), 0o755)
	if err := syscall.Mkfifo(filepath.Join(dir, "fifo"), 0o644); err != nil {
		t.Skipf("SKIP: mkfifo: %v", err)
	}
	os.Symlink("ok.json", filepath.Join(dir, "link"))
	root, err := os.OpenRoot(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer root.Close()
	if b, err := Read(root, "ok.json", 10); err != nil || string(b) != "{}" {
		t.Errorf("regular file: %q %v", b, err)
	}
	// A FIFO must be refused at once: opening one for reading blocks until a
	// writer appears, which is how a swapped-in FIFO hung the gate.
	if _, err := Read(root, "fifo", 0); !errors.Is(err, ErrWrongType) {
		t.Errorf("fifo: %v", err)
	}
	if _, err := OpenDir(root, "fifo"); err == nil {
		t.Errorf("fifo as a directory: no error")
	}
	if _, err := Read(root, "link", 0); err == nil {
		t.Errorf("symlink followed")
	}
	if _, err := Read(root, "sub", 0); err == nil {
		t.Errorf("directory read as a file")
	}
	var tl *TooLargeError
	if _, err := Read(root, "big.json", 99); !errors.As(err, &tl) || tl.Size != 100 {
		t.Errorf("over the ceiling: %v", err)
	}
	if b, err := Read(root, "big.json", 100); err != nil || len(b) != 100 {
		t.Errorf("at the ceiling: %d %v", len(b), err)
	}
	if d, err := OpenDir(root, "sub"); err != nil {
		t.Errorf("directory: %v", err)
	} else {
		d.Close()
	}
}
