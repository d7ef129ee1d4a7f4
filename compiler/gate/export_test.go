package gate

// SetOneByOne makes the gate run every check one after the other (see
// alongside) while set.
func SetOneByOne(on bool) { oneByOne = on }
