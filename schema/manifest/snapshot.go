package manifest

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"sort"
)

// SnapshotHash is the 12-hex-digit content hash of a snapshot ID
// (<frameworkId>@<versionToken>+<hash>): the first 12 hex digits of the SHA-256
// over every artifact's "<path>\x00<sha256:digest>\n", in path order, then
// "profile\x00<profile digest>\n". The reference's own algorithm is not
// published; this one covers the same inputs (every artifact byte, through its
// digest, and the profile binding), so a package with other content or another
// profile gets another snapshot ID.
func SnapshotHash(checksums map[string]string, profileDigest string) string {
	paths := make([]string, 0, len(checksums))
	for p := range checksums {
		paths = append(paths, p)
	}
	sort.Strings(paths)
	h := sha256.New()
	for _, p := range paths {
		fmt.Fprintf(h, "%s\x00%s\n", p, checksums[p])
	}
	fmt.Fprintf(h, "profile\x00%s\n", profileDigest)
	return hex.EncodeToString(h.Sum(nil))[:12]
}
