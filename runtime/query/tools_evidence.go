package query

import (
	"context"
	"unicode/utf8"

	"github.com/kgc-project/kgc/internal/canonjson"
	"github.com/kgc-project/kgc/internal/jsonschema"
	"github.com/kgc-project/kgc/runtime/kgerr"
	"github.com/kgc-project/kgc/runtime/resource"
	"github.com/kgc-project/kgc/runtime/uri"
	"github.com/kgc-project/kgc/schema/ids"
)

// read_evidence window bounds (docs/reference/tools.md#read_evidence).
const (
	defaultEvidenceWindow = 16384
	maxEvidenceWindow     = 32768
	evidenceCursorKind    = "evidence_window_v1"
)

const evidenceNotice = "content is one window of the resource's original UTF-8 bytes [page.startByte, page.endByteExclusive). " +
	"To read on, call read_evidence with page.nextRequest exactly as returned; joining the windows in order reproduces " +
	"the bytes whose SHA-256 is metadata.contentSha256."

// EvidenceRequest asks for one window of a resource (read_evidence).
// NewEvidenceRequest fills the defaults.
type EvidenceRequest struct {
	URI             string  `json:"uri"`
	MaxContentBytes int     `json:"maxContentBytes"`
	Cursor          *string `json:"cursor,omitempty"`
}

// NewEvidenceRequest asks for the first window of the resource at uri.
func NewEvidenceRequest(uri string) EvidenceRequest {
	return newRequest[EvidenceRequest](readEvidenceSchema(), map[string]any{"uri": uri})
}

// EvidenceResult is one window of a resource's UTF-8 bytes: joined in order,
// the windows reproduce the bytes whose SHA-256 is Metadata.ContentSha256.
type EvidenceResult struct {
	Content        string           `json:"content"`
	ContentStatus  string           `json:"contentStatus" enum:"full,partial"`
	EvidenceNotice string           `json:"evidenceNotice"`
	Metadata       ResourceMetadata `json:"metadata"`
	Page           EvidencePage     `json:"page"`
	Request        map[string]any   `json:"request"`
}

// EvidencePage places a window in the resource and says how to read on.
type EvidencePage struct {
	ChunkSha256      string         `json:"chunkSha256"`
	EndByteExclusive int            `json:"endByteExclusive"`
	IsComplete       bool           `json:"isComplete"`
	Limits           EvidenceLimits `json:"limits"`
	MaxContentBytes  int            `json:"maxContentBytes"`
	NextCursor       *string        `json:"nextCursor"`
	NextRequest      map[string]any `json:"nextRequest"`
	ReturnedBytes    int            `json:"returnedBytes"`
	StartByte        int            `json:"startByte"`
	TotalBytes       int            `json:"totalBytes"`
}

// EvidenceLimits are the envelope ceilings a window is fitted to.
type EvidenceLimits struct {
	MaxResultBytes      int `json:"maxResultBytes"`
	MaxResultCharacters int `json:"maxResultCharacters"`
}

// ReadEvidence answers read_evidence: one window of any resource under the
// same rights, exposure and size checks as a native read.
func (s *Service) ReadEvidence(ctx context.Context, r EvidenceRequest) (*EvidenceResult, error) {
	if err := checkRequest(readEvidenceSchema(), &r); err != nil {
		return nil, err
	}
	result, err := s.readEvidence(ctx, r)
	return own(s, result, err)
}

func readEvidenceSchema() *Schema {
	return jsonschema.Object(map[string]*Schema{
		"uri":             jsonschema.String(1, 4096, "kgfegmcp://catalog or an exact address built from one of the resource templates"),
		"maxContentBytes": jsonschema.Integer(1, maxEvidenceWindow, defaultEvidenceWindow, "largest window, in bytes of the original resource"),
		"cursor":          cursorSchema(),
	}, "uri")
}

// readEvidence returns one window of any resource under the same rights, exposure
// and size checks as a native read.
func (s *Service) readEvidence(_ context.Context, r EvidenceRequest) (*EvidenceResult, error) {
	ref, err := uri.Parse(r.URI)
	if err != nil {
		return nil, err
	}
	d, err := s.resolve(ref)
	if err != nil {
		return nil, err
	}
	if int64(len(d.Data)) > s.opts.MaxResourceBytes {
		return nil, resource.Denied("the resource is %d bytes, over the %d-byte limit", len(d.Data), s.opts.MaxResourceBytes)
	}
	if !utf8.Valid(d.Data) {
		return nil, kgerr.New(kgerr.UnsupportedEvidenceFormat, "%s is not UTF-8 text", ref.String())
	}
	meta := d.Metadata()
	window := r.MaxContentBytes
	bind := obj{"cursorKind": evidenceCursorKind, "cursorVersion": 1, "canonicalUri": ref.String(),
		"contentSha256": meta.ContentSha256, "metadataSha256": sha256OfValue(meta), "maxContentBytes": window}
	start := 0
	if r.Cursor != nil {
		fields, err := decodeCursor(*r.Cursor, bind)
		if err != nil {
			return nil, err
		}
		off, ok := fields["offset"].(float64)
		if !ok || off != float64(int(off)) || off <= 0 || int(off) >= len(d.Data) || !utf8.RuneStart(d.Data[int(off)]) {
			return nil, invalidCursor("its offset is not in this resource")
		}
		start = int(off)
	}
	request := obj{"uri": r.URI, "maxContentBytes": window, "cursor": r.Cursor}
	build := func(end int) *EvidenceResult {
		chunk := d.Data[start:end]
		complete := end == len(d.Data)
		out := &EvidenceResult{Metadata: meta, Content: string(chunk), ContentStatus: "partial", EvidenceNotice: evidenceNotice,
			Request: request, Page: EvidencePage{
				StartByte: start, EndByteExclusive: end, ReturnedBytes: end - start, TotalBytes: len(d.Data),
				MaxContentBytes: window, IsComplete: complete, ChunkSha256: ids.Sha256(chunk),
				Limits: EvidenceLimits{MaxResultBytes: maxProgressionResultBytes, MaxResultCharacters: maxProgressionResultChars},
			}}
		if !complete {
			f := obj{}
			for k, v := range bind {
				f[k] = v
			}
			f["offset"] = end
			next := encodeCursor(f)
			out.Page.NextCursor, out.Page.NextRequest = &next, obj{"uri": r.URI, "maxContentBytes": window, "cursor": next}
		}
		if start == 0 && complete {
			out.ContentStatus = "full"
		}
		return out
	}
	end := boundary(d.Data, min(start+window, len(d.Data)))
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
		end = boundary(d.Data, start+(end-start)/2)
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
