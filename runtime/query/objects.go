package query

// obj is a JSON object under construction (keys are sorted when encoded).
type obj = map[string]any

func nonNil(list []string) []string {
	if list == nil {
		return []string{}
	}
	return list
}
