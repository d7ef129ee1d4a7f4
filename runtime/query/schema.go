package query

import "github.com/kgc-project/kgc/internal/jsonschema"

// Schema is the subset of JSON Schema the tool inputs are written in
// (internal/jsonschema): published in tools/list and enforced on every call.
type Schema = jsonschema.Schema

// InputError is an argument the tool's input schema refuses.
type InputError = jsonschema.InputError
