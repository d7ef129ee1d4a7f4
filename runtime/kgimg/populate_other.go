//go:build unix && !linux

package kgimg

const populate = 0
