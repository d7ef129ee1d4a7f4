package query

import (
	"context"
	"fmt"
	"reflect"

	"github.com/kgc-project/kgc/internal/canonjson"
	"github.com/kgc-project/kgc/internal/jsonschema"
	"github.com/kgc-project/kgc/internal/jsonv"
)

// The typed API: every tool whose answer is a Go type has a request type, a
// constructor that fills the request's defaults from the published schema
// (the one place defaults are written), and a Service method that validates
// the request against that schema exactly as a tool call is validated, then
// answers it. The tool table reaches the same handler through typedRun, so
// both paths give the same answer.

// handler is what answers a tool, and the Go type of its result. run takes
// the request as a document Call has validated and completed with the
// schema's defaults.
type handler struct {
	run    func(ctx context.Context, req *jsonv.Value) (any, error)
	result reflect.Type
}

// typedRun adapts a typed handler to the tool table: the request document
// crosses to its Go type once (canonjson.Decode), no JSON text between.
func typedRun[Req, Res any](h func(context.Context, Req) (Res, error)) handler {
	return handler{run: func(ctx context.Context, req *jsonv.Value) (any, error) {
		var r Req
		if err := canonjson.Decode(req, &r); err != nil {
			return nil, jsonschema.Fail("request", "%v", err)
		}
		return h(ctx, r)
	}, result: reflect.TypeFor[Res]()}
}

// pagedRun is typedRun for a cursor-paged tool whose pages are Page.
func pagedRun[Req, Page any](h func(context.Context, Req) (*Paged, error)) handler {
	run := typedRun(h)
	run.result = reflect.TypeFor[Page]()
	return run
}

// checkRequest validates a typed request against its tool's schema (an
// *InputError, or a domain error for an unsupported discriminator, when it
// breaks it) and rewrites it with the schema's defaults for any field the
// schema lets it leave out.
func checkRequest[Req any](schema *Schema, r *Req) error {
	v, err := canonjson.ValueOf(r) // the document r encodes to, no text between
	if err != nil {
		return fmt.Errorf("query: encoding the request: %w", err)
	}
	if err := schema.Validate(v, "request"); err != nil {
		return err
	}
	return canonjson.Decode(schema.WithDefaults(v), r)
}

// newRequest returns the request of a schema with every default filled in
// over the given required members.
func newRequest[Req any](schema *Schema, required map[string]any) Req {
	var r Req
	v, _ := canonjson.ValueOf(required)
	canonjson.Decode(schema.WithDefaults(v), &r)
	return r
}
