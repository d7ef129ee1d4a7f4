//go:build !race

package imgtest

const raceDetector = false
