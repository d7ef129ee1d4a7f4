package serve

import (
	"bufio"
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"os"
	"os/signal"
	"path"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/kgc-project/kgc/runtime/mcpserver"
)

// API keys (--api-key-file) guard the HTTP endpoint of a small deployment:
// a request to /mcp must carry a key the file lists, as "Authorization:
// Bearer KEY" or "X-API-Key: KEY"; it then sees only the frameworks the key
// is granted (mcpserver.Grant). The file holds one key a line, the key
// itself or its SHA-256 as sha256:HEX (64 hex digits), then optionally the
// frameworks it grants (IDs or patterns such as ghana-*; none: all); blank
// lines and lines starting with # are ignored. The file is read again when
// it changes (a Secret mounted as a file changes without a signal) and on
// SIGHUP; a file that no longer reads keeps the keys read last, logged. Keys
// are never logged; a key is known in the log by the first 8 hex digits of
// its SHA-256.

// minKeyLength is the shortest key accepted in the file (a guessable key is
// no key).
const minKeyLength = 16

// maxKeyFileBytes bounds the key file.
const maxKeyFileBytes = 1 << 20

// keyGrant is one key of the file.
type keyGrant struct {
	id    string // the first 8 hex digits of the key's SHA-256
	grant *mcpserver.Grant
}

// keySet is the keys of one reading of the file, by SHA-256.
type keySet map[[32]byte]keyGrant

// parseKeys reads a key file's lines (every error, with its line number).
func parseKeys(r io.Reader) (keySet, error) {
	set := keySet{}
	var errs []error
	sc := bufio.NewScanner(io.LimitReader(r, maxKeyFileBytes+1))
	sc.Buffer(make([]byte, 0, 4096), maxKeyFileBytes+1)
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		fields := strings.Fields(line)
		var sum [32]byte
		if h, ok := strings.CutPrefix(fields[0], "sha256:"); ok {
			b, err := hex.DecodeString(h)
			if err != nil || len(b) != 32 {
				errs = append(errs, fmt.Errorf("line %d: sha256: must be followed by 64 hex digits", n))
				continue
			}
			copy(sum[:], b)
		} else {
			if len(fields[0]) < minKeyLength {
				errs = append(errs, fmt.Errorf("line %d: a key must be at least %d characters", n, minKeyLength))
				continue
			}
			sum = sha256.Sum256([]byte(fields[0]))
		}
		for _, f := range fields[1:] {
			if _, err := path.Match(f, ""); err != nil {
				errs = append(errs, fmt.Errorf("line %d: %q is not a framework ID or pattern", n, f))
			}
		}
		if _, dup := set[sum]; dup {
			errs = append(errs, fmt.Errorf("line %d: the key is listed twice", n))
			continue
		}
		id := hex.EncodeToString(sum[:4])
		set[sum] = keyGrant{id: id, grant: &mcpserver.Grant{Frameworks: fields[1:], Caller: "key:" + id}}
	}
	if err := sc.Err(); err != nil {
		errs = append(errs, err)
	}
	if len(errs) == 0 && len(set) == 0 {
		errs = append(errs, errors.New("no key is listed"))
	}
	return set, errors.Join(errs...)
}

// keyFile is the key file and the keys read from it last.
type keyFile struct {
	path    string
	log     *slog.Logger
	keys    atomic.Pointer[keySet]
	mu      sync.Mutex // one reload at a time
	checked atomic.Int64
	stat    os.FileInfo
}

// loadKeyFile reads the key file at start: an error stops the server.
func loadKeyFile(p string, log *slog.Logger) (*keyFile, error) {
	k := &keyFile{path: p, log: log}
	if err := k.reload(); err != nil {
		return nil, fmt.Errorf("--api-key-file %s: %w", p, err)
	}
	return k, nil
}

// reload reads the file again and installs its keys when it reads.
func (k *keyFile) reload() error {
	k.mu.Lock()
	defer k.mu.Unlock()
	// Links are followed (a Kubernetes Secret mounts its files as links
	// into a directory it swaps); what they lead to must be a regular file.
	real, err := filepath.EvalSymlinks(k.path)
	if err != nil {
		return err
	}
	if fi, err := os.Lstat(real); err != nil || !fi.Mode().IsRegular() {
		return fmt.Errorf("%s is not a regular file", real)
	}
	f, err := os.Open(real)
	if err != nil {
		return err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return err
	}
	if fi.Size() > maxKeyFileBytes {
		return fmt.Errorf("the file is %d bytes, over %d", fi.Size(), maxKeyFileBytes)
	}
	b, err := io.ReadAll(io.LimitReader(f, maxKeyFileBytes+1))
	if err != nil {
		return err
	}
	set, err := parseKeys(bytes.NewReader(b))
	if err != nil {
		return err
	}
	k.keys.Store(&set)
	k.stat = fi
	return nil
}

// refresh reloads the file when it changed, at most once a second; a file
// that no longer reads keeps the keys read last.
func (k *keyFile) refresh() {
	now := time.Now().UnixNano()
	last := k.checked.Load()
	if now-last < int64(time.Second) || !k.checked.CompareAndSwap(last, now) {
		return
	}
	fi, err := os.Stat(k.path)
	k.mu.Lock()
	same := err == nil && k.stat != nil && os.SameFile(fi, k.stat) && fi.Size() == k.stat.Size() && fi.ModTime().Equal(k.stat.ModTime())
	k.mu.Unlock()
	if same {
		return
	}
	if err := k.reload(); err != nil {
		k.log.Error("api key file unreadable; keeping the keys read last", "path", k.path, "error", err.Error())
		return
	}
	k.log.Info("api keys reloaded", "path", k.path, "keys", len(*k.keys.Load()))
}

// lookup returns the grant of a presented key.
func (k *keyFile) lookup(key string) (keyGrant, bool) {
	k.refresh()
	g, ok := (*k.keys.Load())[sha256.Sum256([]byte(key))]
	return g, ok
}

// presentedKey is the key a request carries (Authorization: Bearer, or
// X-API-Key), or "".
func presentedKey(r *http.Request) string {
	if a := r.Header.Get("Authorization"); a != "" {
		if v, ok := strings.CutPrefix(a, "Bearer "); ok {
			return strings.TrimSpace(v)
		}
		return ""
	}
	return strings.TrimSpace(r.Header.Get("X-API-Key"))
}

// requireKey admits a request to next only with a listed key, carrying its
// grant; otherwise 401 with WWW-Authenticate (key-only mode: there is no
// authorization server to name).
func requireKey(k *keyFile, log *slog.Logger, next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		key := presentedKey(r)
		g, ok := k.lookup(key)
		if key == "" || !ok {
			if key != "" {
				log.Warn("http: refused an unknown api key", "remote", r.RemoteAddr)
			}
			w.Header().Set("WWW-Authenticate", `Bearer realm="kgmcp"`)
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(http.StatusUnauthorized)
			b, _ := json.Marshal(map[string]string{"error": "unauthorized", "error_description": "send a key of the server's key file as Authorization: Bearer KEY or X-API-Key: KEY"})
			w.Write(b)
			return
		}
		log.Debug("http: api key", "key", g.id)
		next.ServeHTTP(w, r.WithContext(mcpserver.WithGrant(r.Context(), g.grant)))
	})
}

// onHangup reads the key file again on every SIGHUP until ctx ends.
func (k *keyFile) onHangup(ctx context.Context) {
	hup := make(chan os.Signal, 1)
	signal.Notify(hup, syscall.SIGHUP)
	defer signal.Stop(hup)
	for {
		select {
		case <-ctx.Done():
			return
		case <-hup:
			if err := k.reload(); err != nil {
				k.log.Error("api key file unreadable on SIGHUP; keeping the keys read last", "path", k.path, "error", err.Error())
			} else {
				k.log.Info("api keys reloaded", "path", k.path, "keys", len(*k.keys.Load()))
			}
		}
	}
}
