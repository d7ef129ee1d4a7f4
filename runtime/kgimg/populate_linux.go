package kgimg

import "golang.org/x/sys/unix"

// populate pre-faults the mapping in one call: Open reads every page anyway
// (the checksum), and one populate is cheaper than a fault per page.
const populate = unix.MAP_POPULATE
