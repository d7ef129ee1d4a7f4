package query

import (
	"encoding/base64"
	"encoding/json"
	"sort"

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

// catalogBound are the cursor fields that bind the images a page came from
// (not the request): a cursor from a server serving other images differs in
// one of them. A cursor from another replica serving the same images is
// honoured (every field is derived from the images, not the process).
var catalogBound = map[string]bool{"catalogSha256": true, "indexSetSha256": true, "manifestSha256": true, "profileSha256": true}

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
	// The fields that bind the images first (a changed catalog says so,
	// whatever else differs with it), then the others, in a fixed order.
	keys := make([]string, 0, len(want))
	for k := range want {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool {
		if catalogBound[keys[i]] != catalogBound[keys[j]] {
			return catalogBound[keys[i]]
		}
		return keys[i] < keys[j]
	})
	for _, k := range keys {
		w := want[k]
		wb, _ := canonjson.Marshal(w)
		fb, _ := canonjson.Marshal(fields[k])
		if string(wb) != string(fb) {
			if catalogBound[k] {
				// Another replica serving other images, or a reload, since
				// the cursor was issued: the listing cannot go on.
				return nil, kgerr.New(kgerr.InvalidCursor, "the catalog changed since the cursor was issued (%s differs: the server answering now serves other images than the one that issued it, or reloaded them)", k).
					WithHint("restart the listing: repeat the request without a cursor")
			}
			return nil, invalidCursor(k + " differs")
		}
	}
	return fields, nil
}
