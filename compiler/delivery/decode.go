package delivery

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"errors"
	"fmt"
	"hash"
	"io"
	"math"
	"strconv"

	"github.com/kgc-project/kgc/internal/jsonv"
	"github.com/kgc-project/kgc/schema/finding"
)

// MaxLineBytes bounds one physical line.
const MaxLineBytes = 8 << 20

// Result is what decoding one delivery file produced.
type Result struct {
	Nodes         []*Node
	Relationships []*Relationship
	// Findings keeps the first finding.DefaultKeep findings and counts all.
	Findings finding.List
	// Sha256 is the digest of every byte read, as `sha256:<hex>`.
	Sha256 string
	Size   int64
}

// Kind says which record type a file holds.
type Kind uint8

// File kinds.
const (
	NodesFile Kind = iota
	RelationshipsFile
)

type decoder struct {
	kind     Kind
	artifact string
	path     string
	res      *Result
	line     int
	order    int
	sum      hash.Hash
	// envelopes counts the envelope findings so far (see envelopeBroken).
	envelopes int
}

func (d *decoder) add(code finding.Code, record, field, format string, args ...any) {
	if code == finding.JSONLEnvelopeInvalid {
		d.envelopes++
	}
	d.res.Findings.Add(finding.New(code, format, args...).
		WithStage(finding.StageDelivery).At(d.artifact, d.path).OnLine(d.line).For(record).In(field))
}

// Decode reads a whole delivery file of the given kind from r, hashing every
// byte. I/O errors are returned; content problems become findings.
func Decode(r io.Reader, kind Kind, artifact, path string) (*Result, error) {
	d := &decoder{kind: kind, artifact: artifact, path: path, res: &Result{}, sum: sha256.New()}
	br := bufio.NewReaderSize(io.TeeReader(r, d.sum), 256<<10)
	var long []byte
	tooLong := false
	var offset int64
	for {
		chunk, err := br.ReadSlice('\n')
		if errors.Is(err, bufio.ErrBufferFull) {
			if len(long)+len(chunk) <= MaxLineBytes {
				long = append(long, chunk...)
			} else {
				tooLong = true
			}
			offset += int64(len(chunk))
			continue
		}
		if err != nil && !errors.Is(err, io.EOF) {
			return nil, fmt.Errorf("read %s: %w", path, err)
		}
		line := chunk
		if long != nil {
			line = append(long, chunk...)
			long = nil
		}
		offset += int64(len(chunk))
		switch {
		case tooLong:
			d.line++
			d.add(finding.JSONLParsingError, "", "", "line is longer than %d bytes", MaxLineBytes)
			tooLong = false
		case len(line) > 0:
			d.line++
			d.record(line, offset)
		}
		if err != nil {
			break
		}
	}
	d.res.Sha256 = "sha256:" + fmt.Sprintf("%x", d.sum.Sum(nil))
	d.res.Size = offset
	return d.res, nil
}

func (d *decoder) record(raw []byte, end int64) {
	line := bytes.TrimSuffix(raw, []byte("\n"))
	if len(line) > MaxLineBytes {
		d.add(finding.JSONLParsingError, "", "", "line is longer than %d bytes", MaxLineBytes)
		return
	}
	if len(line) == 0 {
		d.add(finding.JSONLParsingError, "", "", "blank line: every line must hold one JSON object")
		return
	}
	if bytes.IndexByte(line, '\r') >= 0 {
		d.add(finding.JSONLParsingError, "", "", "carriage return in a line: lines must end with a bare newline")
		return
	}
	v, errs := jsonv.Parse(line)
	for _, e := range errs {
		code := finding.JSONLParsingError
		switch e.Kind {
		case jsonv.DuplicateKey:
			code = finding.JSONDuplicateKey
		case jsonv.InvalidUTF8:
			code = finding.JSONInvalidUTF8
		}
		d.add(code, "", "", "column %d: %s", e.Off+1, e.Msg)
	}
	if v == nil {
		return
	}
	if v.Kind != jsonv.Object {
		d.add(finding.JSONLParsingError, "", "", "a line must hold a JSON object, not %s", v.Kind)
		return
	}
	if d.kind == NodesFile {
		d.node(v)
		return
	}
	d.relationship(v, line, end)
}

type envelope struct {
	d      *decoder
	v      *jsonv.Value
	record string
	used   map[string]bool
}

func (e *envelope) get(key string) *jsonv.Value {
	e.used[key] = true
	return e.v.Get(key)
}

func (e *envelope) str(key string) (string, bool) {
	v := e.get(key)
	if v == nil {
		e.d.add(finding.JSONLEnvelopeInvalid, e.record, key, "%s is required", key)
		return "", false
	}
	if v.Kind != jsonv.String {
		e.d.add(finding.JSONLEnvelopeInvalid, e.record, key, "%s must be a string, not %s", key, v.Kind)
		return "", false
	}
	return v.Str, true
}

func (e *envelope) labels(key string) []string {
	v := e.get(key)
	if v == nil {
		e.d.add(finding.JSONLEnvelopeInvalid, e.record, key, "%s is required", key)
		return nil
	}
	if v.Kind != jsonv.Array || len(v.Arr) == 0 {
		e.d.add(finding.JSONLEnvelopeInvalid, e.record, key, "%s must be a non-empty array of strings", key)
		return nil
	}
	out := make([]string, 0, len(v.Arr))
	for _, el := range v.Arr {
		if el.Kind != jsonv.String || el.Str == "" {
			e.d.add(finding.JSONLEnvelopeInvalid, e.record, key, "%s must hold non-empty strings only", key)
			return nil
		}
		out = append(out, el.Str)
	}
	return out
}

func (e *envelope) done() {
	for _, m := range e.v.Obj {
		if !e.used[m.Key] {
			e.d.add(finding.JSONLEnvelopeInvalid, e.record, m.Key, "%s is not an envelope field", m.Key)
		}
	}
}

// properties checks that properties is an object of strings and yields each one.
func (e *envelope) properties(each func(key, val string)) {
	v := e.get("properties")
	if v == nil {
		e.d.add(finding.JSONLEnvelopeInvalid, e.record, "properties", "properties is required")
		return
	}
	if v.Kind != jsonv.Object {
		e.d.add(finding.JSONLEnvelopeInvalid, e.record, "properties", "properties must be an object, not %s", v.Kind)
		return
	}
	for _, m := range v.Obj {
		if m.Val.Kind != jsonv.String {
			e.d.add(finding.DeliveryPropertyDecoding, e.record, "properties."+m.Key, "property %s must be a string, not %s", m.Key, m.Val.Kind)
			continue
		}
		each(m.Key, m.Val.Str)
	}
}

var nodePropIndex = func() map[string]NodeProp {
	m := make(map[string]NodeProp, NumNodeProps)
	for i, n := range NodePropNames {
		m[n] = NodeProp(i)
	}
	return m
}()

var relPropIndex = func() map[string]RelProp {
	m := make(map[string]RelProp, NumRelProps)
	for i, n := range RelPropNames {
		m[n] = RelProp(i)
	}
	return m
}()

func (d *decoder) node(v *jsonv.Value) {
	id := ""
	if iv := v.Get("identifier"); iv != nil && iv.Kind == jsonv.String {
		id = iv.Str
	}
	e := &envelope{d: d, v: v, record: id, used: map[string]bool{}}
	if t, ok := e.str("type"); ok && t != "node" {
		d.add(finding.JSONLEnvelopeInvalid, id, "type", "type is %q; the nodes artifact holds only node records", t)
		return
	}
	before := d.envelopes
	n := &Node{Line: d.line}
	n.ID, _ = e.str("identifier")
	n.Labels = e.labels("labels")
	e.properties(func(key, val string) {
		p, known := nodePropIndex[key]
		if !known {
			return
		}
		n.SetProp(p, val)
		switch p {
		case NIsCurrent:
			switch val {
			case "true":
				n.IsCurrent = true
			case "false":
			default:
				d.add(finding.DeliveryPropertyDecoding, id, "properties.isCurrent", "isCurrent must be exactly \"true\" or \"false\", not %q", val)
			}
		case NGradeLevel, NTags:
			list, ok := stringArray(val)
			if !ok {
				d.add(finding.DeliveryPropertyDecoding, id, "properties."+key, "%s must be a JSON array of strings encoded in a string, not %q", key, clip(val))
				return
			}
			if p == NGradeLevel {
				n.GradeLevel = list
			} else {
				n.Tags = list
			}
		}
	})
	e.done()
	d.order++
	n.Order = d.order
	if d.envelopeBroken(before) {
		return
	}
	d.res.Nodes = append(d.res.Nodes, n)
}

func (d *decoder) relationship(v *jsonv.Value, line []byte, end int64) {
	id := ""
	if iv := v.Get("identifier"); iv != nil && iv.Kind == jsonv.String {
		id = iv.Str
	}
	e := &envelope{d: d, v: v, record: id, used: map[string]bool{}}
	if t, ok := e.str("type"); ok && t != "relationship" {
		d.add(finding.JSONLEnvelopeInvalid, id, "type", "type is %q; the relationships artifact holds only relationship records", t)
		return
	}
	before := d.envelopes
	r := &Relationship{Line: d.line, EndOffset: end}
	r.ID, _ = e.str("identifier")
	r.Label, _ = e.str("label")
	r.Source, _ = e.str("source_identifier")
	r.Target, _ = e.str("target_identifier")
	r.SourceLabels = e.labels("source_labels")
	r.TargetLabels = e.labels("target_labels")
	e.properties(func(key, val string) {
		p, known := relPropIndex[key]
		if !known {
			return
		}
		r.SetProp(p, val)
		if p == RSupportConfidence {
			f, err := strconv.ParseFloat(val, 64)
			if err != nil || math.IsNaN(f) || f < 0 || f > 1 {
				d.add(finding.DeliveryPropertyDecoding, id, "properties.supportConfidence", "supportConfidence must be a number from 0 to 1, not %q", clip(val))
				return
			}
			r.Confidence = f
		}
	})
	e.done()
	if IsProgression(r.Label) {
		r.LineHash = sha256.Sum256(line)
	}
	d.order++
	r.Order = d.order
	if d.envelopeBroken(before) {
		return
	}
	d.res.Relationships = append(d.res.Relationships, r)
}

// envelopeBroken reports whether the record being decoded got an envelope
// finding since the count was before: such a record is left out of the
// decoded graph (its problem is reported; checks on the rest of the graph
// still run).
func (d *decoder) envelopeBroken(before int) bool { return d.envelopes > before }

// stringArray decodes a JSON array of strings held in a string property.
func stringArray(s string) ([]string, bool) {
	v, errs := jsonv.Parse([]byte(s))
	if v == nil || len(errs) > 0 || v.Kind != jsonv.Array {
		return nil, false
	}
	out := make([]string, 0, len(v.Arr))
	for _, el := range v.Arr {
		if el.Kind != jsonv.String {
			return nil, false
		}
		out = append(out, el.Str)
	}
	return out, true
}

func clip(s string) string {
	if len(s) > 80 {
		return s[:80] + "…"
	}
	return s
}
