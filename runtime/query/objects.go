package query

// obj is a JSON object under construction (keys are sorted when encoded).
type obj = map[string]any

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

func nonNil(list []string) []string {
	if list == nil {
		return []string{}
	}
	return list
}
