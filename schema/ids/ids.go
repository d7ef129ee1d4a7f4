// Package ids validates the identifier types of the graph-package contract
// (docs/reference/package-format.md): framework, snapshot, package, profile and version tokens,
// opaque node and relationship identifiers, language tags, SHA-256 digests and
// artifact names and paths. Each Check function returns "" when the value is valid
// and a short reason otherwise, so callers can turn it into a finding.
package ids

import (
	"crypto/sha256"
	"encoding/hex"
	"regexp"
	"strings"
	"unicode/utf8"
)

var (
	frameworkRe    = regexp.MustCompile(`^[a-z0-9]+(?:-[a-z0-9]+)*$`)
	snapshotRe     = regexp.MustCompile(`^[a-z0-9]+(?:-[a-z0-9]+)*@[a-z0-9]+(?:[._-][a-z0-9]+)*\+[0-9a-f]{12}$`)
	packageRe      = regexp.MustCompile(`^[a-z0-9]+(?:-[a-z0-9]+)*@[a-z0-9]+(?:[._-][a-z0-9]+)*\+[0-9a-f]{12}(?:--[a-z0-9]+(?:-[a-z0-9]+)*--p[1-9][0-9]*)?$`)
	tokenRe        = regexp.MustCompile(`^[a-z0-9]+(?:[._-][a-z0-9]+)*$`)
	languageRe     = regexp.MustCompile(`^[A-Za-z]{2,8}(?:-[A-Za-z0-9]{1,8})*$`)
	sha256Re       = regexp.MustCompile(`^sha256:[0-9a-f]{64}$`)
	artifactNameRe = regexp.MustCompile(`^[A-Za-z][A-Za-z0-9_-]*$`)
	codeTypeRe     = regexp.MustCompile(`^[a-z][a-z0-9_]*$`)
)

func between(s string, lo, hi int) bool {
	n := utf8.RuneCountInString(s)
	return n >= lo && n <= hi
}

func pattern(s string, re *regexp.Regexp, lo, hi int, what string) string {
	if !between(s, lo, hi) {
		return what + " must be " + itoa(lo) + "–" + itoa(hi) + " characters"
	}
	if !re.MatchString(s) {
		return what + " does not match " + re.String()
	}
	return ""
}

func itoa(n int) string {
	if n == 0 {
		return "0"
	}
	var b [20]byte
	i := len(b)
	for n > 0 {
		i--
		b[i] = byte('0' + n%10)
		n /= 10
	}
	return string(b[i:])
}

// CheckFramework validates a FrameworkId (also used for ProfileId).
func CheckFramework(s string) string {
	return pattern(s, frameworkRe, 3, 200, "a framework ID")
}

// CheckProfileID validates a ProfileId.
func CheckProfileID(s string) string { return pattern(s, frameworkRe, 3, 200, "a profile ID") }

// CheckPromptConfigID validates a prompt-config ID (kebab case, 3–200).
func CheckPromptConfigID(s string) string {
	return pattern(s, frameworkRe, 3, 200, "a prompt-config ID")
}

// CheckSnapshot validates a SnapshotId.
func CheckSnapshot(s string) string { return pattern(s, snapshotRe, 18, 280, "a snapshot ID") }

// CheckGraphPackage validates a GraphPackageId (initial or versioned form).
func CheckGraphPackage(s string) string {
	return pattern(s, packageRe, 18, 320, "a graph package ID")
}

// CheckVersion validates a profile, schema or manifest version token (1–64).
func CheckVersion(s string) string { return pattern(s, tokenRe, 1, 64, "a version") }

// CheckLanguage validates a language tag.
func CheckLanguage(s string) string { return pattern(s, languageRe, 2, 64, "a language tag") }

// Sha256 returns the `sha256:<64 hex>` digest of b, the form CheckSha256
// accepts and every manifest, profile, image and resource hash uses.
func Sha256(b []byte) string {
	sum := sha256.Sum256(b)
	return "sha256:" + hex.EncodeToString(sum[:])
}

// CheckSha256 validates a `sha256:<64 hex>` digest.
func CheckSha256(s string) string {
	if !sha256Re.MatchString(s) {
		return "a digest must be sha256: followed by 64 lowercase hex digits"
	}
	return ""
}

// CheckArtifactName validates an artifact logical name.
func CheckArtifactName(s string) string {
	return pattern(s, artifactNameRe, 1, 100, "an artifact name")
}

// CheckCodeType validates a code-type key.
func CheckCodeType(s string) string { return pattern(s, codeTypeRe, 1, 200, "a code type") }

// CheckOpaque validates an opaque identifier (node, relationship, CASE UUID: max
// 1024; CASE URI: max 2048): non-empty, no surrounding whitespace, no ASCII
// control characters.
func CheckOpaque(s string, max int) string {
	if s == "" {
		return "an identifier must not be empty"
	}
	if utf8.RuneCountInString(s) > max {
		return "an identifier must be at most " + itoa(max) + " characters"
	}
	if strings.TrimSpace(s) != s {
		return "an identifier must not have leading or trailing whitespace"
	}
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c == 0x7f {
			return "an identifier must not contain control characters"
		}
	}
	return ""
}

// Maximum lengths of opaque identifiers.
const (
	MaxNodeID  = 1024
	MaxCaseURI = 2048
)

// CheckArtifactPath validates a manifest artifact path: 1–512 characters,
// relative POSIX, no surrounding whitespace, no control characters, no
// backslash, no empty, "." or ".." segment.
func CheckArtifactPath(s string) string {
	if !between(s, 1, 512) {
		return "an artifact path must be 1–512 characters"
	}
	if strings.TrimSpace(s) != s {
		return "an artifact path must not have leading or trailing whitespace"
	}
	if strings.HasPrefix(s, "/") {
		return "an artifact path must be relative"
	}
	if strings.ContainsRune(s, '\\') {
		return "an artifact path must not contain a backslash"
	}
	for _, r := range s {
		if r < 0x20 || r == 0x7f || (r >= 0x80 && r < 0xa0) {
			return "an artifact path must not contain control characters"
		}
	}
	if len(s) >= 2 && s[1] == ':' {
		return "an artifact path must not name a drive"
	}
	for _, seg := range strings.Split(s, "/") {
		switch seg {
		case "":
			return "an artifact path must not have an empty segment"
		case ".", "..":
			return "an artifact path must not have a '.' or '..' segment"
		}
	}
	return ""
}

// FrameworkOfSnapshot returns the framework part of a snapshot ID (before '@').
func FrameworkOfSnapshot(snapshot string) string {
	if i := strings.IndexByte(snapshot, '@'); i >= 0 {
		return snapshot[:i]
	}
	return ""
}
