//go:build race

package kgimg

// scrubCopies: see verifyRead.
const scrubCopies = true
