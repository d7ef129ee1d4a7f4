package query

import (
	"context"
	"encoding/json"
	"unicode/utf8"

	"github.com/kgc-project/kgc/internal/canonjson"
	"github.com/kgc-project/kgc/runtime/kgerr"
	"github.com/kgc-project/kgc/schema/ids"
)

// read_evidence window bounds (surface.md §2.B14).
const (
	defaultEvidenceWindow = 16384
	maxEvidenceWindow     = 32768
	evidenceCursorKind    = "evidence_window_v1"
)

const evidenceNotice = "content is one window of the resource's original UTF-8 bytes [page.startByte, page.endByteExclusive). " +
	"To read on, call read_evidence with page.nextRequest exactly as returned; joining the windows in order reproduces " +
	"the bytes whose SHA-256 is metadata.contentSha256."

type readEvidenceRequest struct {
	URI             string  `json:"uri"`
	MaxContentBytes int     `json:"maxContentBytes"`
	Cursor          *string `json:"cursor"`
}

func readEvidenceSchema() *Schema {
	return object(map[string]*Schema{
		"uri":             str(1, 4096, "kgfegmcp://catalog or an exact address built from one of the resource templates"),
		"maxContentBytes": integer(1, maxEvidenceWindow, defaultEvidenceWindow, "largest window, in bytes of the original resource"),
		"cursor":          cursorSchema(),
	}, "uri")
}

// readEvidence returns one window of any resource under the same rights, exposure
// and size checks as a native read.
func (s *Service) readEvidence(_ context.Context, raw json.RawMessage) (any, error) {
	r, err := decode[readEvidenceRequest](raw)
	if err != nil {
		return nil, err
	}
	ref, err := parseURI(r.URI)
	if err != nil {
		return nil, err
	}
	d, err := s.resolve(ref)
	if err != nil {
		return nil, err
	}
	if int64(len(d.data)) > s.opts.MaxResourceBytes {
		return nil, denied("the resource is %d bytes, over the %d-byte limit", len(d.data), s.opts.MaxResourceBytes)
	}
	if !utf8.Valid(d.data) {
		return nil, kgerr.New(kgerr.UnsupportedEvidenceFormat, "%s is not UTF-8 text", ref.String())
	}
	meta := d.metadata()
	window := r.MaxContentBytes
	bind := obj{"cursorKind": evidenceCursorKind, "cursorVersion": 1, "canonicalUri": ref.String(),
		"contentSha256": meta["contentSha256"], "metadataSha256": sha256OfValue(meta), "maxContentBytes": window}
	start := 0
	if r.Cursor != nil {
		fields, err := decodeCursor(*r.Cursor, bind)
		if err != nil {
			return nil, err
		}
		off, ok := fields["offset"].(float64)
		if !ok || off != float64(int(off)) || off <= 0 || int(off) >= len(d.data) || !utf8.RuneStart(d.data[int(off)]) {
			return nil, invalidCursor("its offset is not in this resource")
		}
		start = int(off)
	}
	request := obj{"uri": r.URI, "maxContentBytes": window, "cursor": r.Cursor}
	build := func(end int) obj {
		chunk := d.data[start:end]
		complete := end == len(d.data)
		var next, nextRequest any
		if !complete {
			f := obj{}
			for k, v := range bind {
				f[k] = v
			}
			f["offset"] = end
			next = encodeCursor(f)
			nextRequest = obj{"uri": r.URI, "maxContentBytes": window, "cursor": next}
		}
		status := "partial"
		if start == 0 && complete {
			status = "full"
		}
		return obj{"metadata": meta, "content": string(chunk), "contentStatus": status, "evidenceNotice": evidenceNotice,
			"request": request, "page": obj{
				"startByte": start, "endByteExclusive": end, "returnedBytes": end - start, "totalBytes": len(d.data),
				"maxContentBytes": window, "isComplete": complete, "nextCursor": next, "nextRequest": nextRequest,
				"chunkSha256": ids.Sha256(chunk),
				"limits":      obj{"maxResultBytes": MaxProgressionResultBytes, "maxResultCharacters": MaxProgressionResultChars},
			}}
	}
	end := boundary(d.data, min(start+window, len(d.data)))
	for end > start {
		out := build(end)
		ok, err := fitsCeiling(out)
		if err != nil {
			return nil, err
		}
		if ok {
			return out, nil
		}
		// Shrink to fit the envelope (escaping can double a window's size).
		end = boundary(d.data, start+(end-start)/2)
	}
	return nil, kgerr.New(kgerr.EvidenceResultTooLarge, "not even one character of %s fits in a window of %d bytes beside the metadata", ref.String(), window).
		WithHint("raise maxContentBytes")
}

// boundary moves end back to the start of a UTF-8 character.
func boundary(data []byte, end int) int {
	for end < len(data) && end > 0 && !utf8.RuneStart(data[end]) {
		end--
	}
	return end
}

func sha256OfValue(v any) string {
	sum, _ := canonjson.Sha256(v)
	return sum
}
