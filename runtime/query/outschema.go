package query

import (
	"reflect"

	"github.com/kgc-project/kgc/internal/jsonschema"
	"github.com/kgc-project/kgc/schema/lpsummary"
)

// OutputSchema returns the JSON Schema (2020-12) of a result type, generated
// from the Go type itself (jsonschema.Output) so that what a tool advertises
// cannot drift from what it returns.
func OutputSchema(t reflect.Type) map[string]any {
	return jsonschema.Output(t, schemaAlternatives, tupleSchemas)
}

// schemaAlternatives lists the concrete types an interface-typed result
// field holds.
var schemaAlternatives = map[reflect.Type][]reflect.Type{
	reflect.TypeFor[EffectiveScope](): {reflect.TypeFor[ExactScope](), reflect.TypeFor[FederatedScope]()},
}

// tupleSchemas are the result types encoded as fixed-length JSON arrays (by
// their MarshalJSON), with the schemas of their items in order.
var tupleSchemas = map[reflect.Type][]map[string]any{
	reflect.TypeFor[lpsummary.RelationshipCount](): {
		{"type": "string", "enum": []any{"buildsTowards", "relatesTo"}}, {"type": "integer"},
	},
	reflect.TypeFor[lpsummary.ExclusionCount](): {{"type": "string"}, {"type": "string"}, {"type": "integer"}},
}
