package query

import (
	"encoding/base64"
	"encoding/json"

	"github.com/kgc-project/kgc/internal/canonjson"
	"github.com/kgc-project/kgc/internal/jsonv"
	"github.com/kgc-project/kgc/runtime/kgerr"
)

// maxCursorLength bounds a cursor (docs/reference/errors.md#invalid_cursor).
const maxCursorLength = 4096

// encodeCursor seals fields with payloadSha256 (the canonical SHA-256 of the
// fields) and encodes the canonical JSON as unpadded base64url.
func encodeCursor(fields obj) string {
	sum, _ := canonjson.Sha256(fields)
	sealed := obj{"payloadSha256": sum}
	for k, v := range fields {
		sealed[k] = v
	}
	b, _ := canonjson.Marshal(sealed)
	return base64.RawURLEncoding.EncodeToString(b)
}

func invalidCursor(why string) error {
	return kgerr.New(kgerr.InvalidCursor, "the cursor is not valid for this request: %s", why).
		WithHint("repeat the request exactly as returned in nextRequest, or start again without a cursor")
}

// decodeCursor checks a cursor's encoding and checksum and returns its fields
// (payloadSha256 removed). want lists fields that must equal the given values.
func decodeCursor(s string, want obj) (map[string]any, error) {
	if len(s) == 0 || len(s) > maxCursorLength {
		return nil, invalidCursor("wrong length")
	}
	raw, err := base64.RawURLEncoding.DecodeString(s)
	if err != nil {
		return nil, invalidCursor("not base64url")
	}
	v, errs := jsonv.Parse(raw)
	if v == nil || len(errs) > 0 || v.Kind != jsonv.Object {
		return nil, invalidCursor("not a cursor")
	}
	var fields map[string]any
	if err := json.Unmarshal(raw, &fields); err != nil {
		return nil, invalidCursor("not a cursor")
	}
	got, _ := fields["payloadSha256"].(string)
	delete(fields, "payloadSha256")
	if sum, _ := canonjson.Sha256(fields); sum != got {
		return nil, invalidCursor("checksum mismatch")
	}
	for k, w := range want {
		wb, _ := canonjson.Marshal(w)
		fb, _ := canonjson.Marshal(fields[k])
		if string(wb) != string(fb) {
			return nil, invalidCursor(k + " differs")
		}
	}
	return fields, nil
}
