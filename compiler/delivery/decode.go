package delivery

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"fmt"
	"hash"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/kgc-project/kgc/internal/jsonv"
	"github.com/kgc-project/kgc/schema/finding"
)

// maxLineBytes bounds one physical line.
const maxLineBytes = 8 << 20

// Result is what decoding one delivery file produced.
type Result struct {
	Nodes         []*Node
	Relationships []*Relationship
	// Table is the table the records were decoded with; for a nodes file,
	// its NodeIndex finds a node of Nodes by ID.
	Table *Table
	// LineHashes holds the SHA-256 of the exact line of each progression
	// record (which the split files must repeat byte for byte), by its
	// position in Relationships: a field of every record cost 32 bytes of
	// a million that have none.
	LineHashes map[int][32]byte
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
	// ps parses every line into the same memory: the values it returns are
	// views of the line, valid until the next line (strings kept are copied).
	ps jsonv.Parser
	// inner parses the JSON-array properties.
	inner jsonv.Parser
	tab   *Table
	// nvals and rvals hold the property values of the record being decoded.
	nvals [NumNodeProps]string
	rvals [NumRelProps]string
	// last is, per property (and, after the relationship properties, for
	// the relationship label), the last value interned and its index: a
	// repeated value is usually the one the record before had.
	last [max(int(NumNodeProps), int(NumRelProps)) + 1]struct {
		s  string
		i  uint32
		ok bool
	}
}

// intern interns a repeated value of property p (see Table.intern),
// remembering the last one per property.
func (d *decoder) intern(p int, v string) (uint32, bool) {
	c := &d.last[p]
	if c.ok && c.s == v {
		return c.i, true
	}
	i, ok := d.tab.intern(v)
	if ok {
		c.s, c.i, c.ok = d.tab.s[i], i, true
	}
	return i, ok
}

func (d *decoder) add(code finding.Code, record, field, format string, args ...any) {
	if code == finding.JSONLEnvelopeInvalid {
		d.envelopes++
	}
	// record and field may be views of the line: findings keep copies.
	d.res.Findings.Add(finding.New(code, format, args...).
		WithStage(finding.StageDelivery).At(d.artifact, d.path).OnLine(d.line).For(strings.Clone(record)).In(strings.Clone(field)))
}

// Decode reads a whole delivery file of the given kind from r, hashing every
// byte, with a table of its own. I/O errors are returned; content problems
// become findings.
func Decode(r io.Reader, kind Kind, artifact, path string) (*Result, error) {
	return NewTable().Decode(r, kind, artifact, path)
}

// Decode is Decode with the table t: decode a package's nodes and then its
// relationships with one table and they share their repeated strings (see
// Table). The records of a nodes file register their IDs in t.
func (t *Table) Decode(r io.Reader, kind Kind, artifact, path string) (*Result, error) {
	return t.DecodeSized(r, 0, kind, artifact, path)
}

// DecodeSized is Decode of a file of size bytes (0: unknown): once its
// first records are read, the records and the table's map of IDs are sized
// for as many as the file likely holds (bounded by its size), instead of
// growing a million times over. The result is the same.
func (t *Table) DecodeSized(r io.Reader, size int64, kind Kind, artifact, path string) (*Result, error) {
	d := &decoder{kind: kind, artifact: artifact, path: path, res: &Result{Table: t}, sum: sha256.New(), tab: t}
	sized := size <= 0
	br := bufio.NewReaderSize(io.TeeReader(r, d.sum), 256<<10)
	var long []byte
	tooLong := false
	var offset int64
	for {
		chunk, err := br.ReadSlice('\n')
		if errors.Is(err, bufio.ErrBufferFull) {
			if len(long)+len(chunk) <= maxLineBytes {
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
			d.add(finding.JSONLParsingError, "", "", "line is longer than %d bytes", maxLineBytes)
			tooLong = false
		case len(line) > 0:
			d.line++
			d.record(line, offset)
			if !sized && d.line >= sizeAfter {
				sized = true
				d.reserve(min(size*int64(d.line)/offset, size/64))
			}
		}
		if err != nil {
			break
		}
	}
	d.res.Sha256 = "sha256:" + fmt.Sprintf("%x", d.sum.Sum(nil))
	d.res.Size = offset
	return d.res, nil
}

// sizeAfter is how many lines DecodeSized reads before it estimates the
// record count.
const sizeAfter = 4096

// reserve makes room for about n records in all (at most maxReserve, and
// at most one per 64 bytes of the file: a record line is longer).
func (d *decoder) reserve(n int64) {
	n = min(n+n/8, maxReserve)
	if d.kind == NodesFile {
		d.res.Nodes = slices.Grow(d.res.Nodes, max(0, int(n)-len(d.res.Nodes)))
		d.tab.reserve(max(0, int(n)-len(d.res.Nodes)))
		return
	}
	d.res.Relationships = slices.Grow(d.res.Relationships, max(0, int(n)-len(d.res.Relationships)))
}

// maxReserve bounds the records DecodeSized makes room for ahead.
const maxReserve = 1 << 24

func (d *decoder) record(raw []byte, end int64) {
	line := bytes.TrimSuffix(raw, []byte("\n"))
	if len(line) > maxLineBytes {
		d.add(finding.JSONLParsingError, "", "", "line is longer than %d bytes", maxLineBytes)
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
	v, errs := d.ps.Parse(line)
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

// envelope reads the envelope of one record. The decoder asks for a fixed set
// of keys per record type (known); every other member is reported by done.
type envelope struct {
	d      *decoder
	v      *jsonv.Value
	record string
	known  []string
}

var (
	nodeEnvelope = []string{"type", "identifier", "labels", "properties"}
	relEnvelope  = []string{"type", "identifier", "label", "source_identifier", "target_identifier", "source_labels", "target_labels", "properties"}
)

func (e *envelope) get(key string) *jsonv.Value { return e.v.Get(key) }

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

// labels returns the labels at key as a list shared through the table.
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
	t := e.d.tab
	t.key = append(t.key[:0], 'L')
	for _, el := range v.Arr {
		if el.Kind != jsonv.String || el.Str == "" {
			e.d.add(finding.JSONLEnvelopeInvalid, e.record, key, "%s must hold non-empty strings only", key)
			return nil
		}
		t.key = binary.AppendUvarint(t.key, uint64(len(el.Str)))
		t.key = append(t.key, el.Str...)
	}
	return t.list(t.key, func() []string { return cloneStrings(v.Arr) })
}

func cloneStrings(arr []*jsonv.Value) []string {
	out := make([]string, 0, len(arr))
	for _, el := range arr {
		out = append(out, strings.Clone(el.Str))
	}
	return out
}

func (e *envelope) done() {
	for _, m := range e.v.Obj {
		if !slices.Contains(e.known, m.Key) {
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

// nodePropOf returns the node property named key (NodePropNames), with a
// switch rather than a map lookup: it runs for every property of a million
// records.
func nodePropOf(key string) (NodeProp, bool) {
	switch key {
	case "academicSubject":
		return NAcademicSubject, true
	case "adoptionStatus":
		return NAdoptionStatus, true
	case "attributionStatement":
		return NAttributionStatement, true
	case "author":
		return NAuthor, true
	case "caseIdentifierURI":
		return NCaseIdentifierURI, true
	case "caseIdentifierUUID":
		return NCaseIdentifierUUID, true
	case "description":
		return NDescription, true
	case "gradeLevel":
		return NGradeLevel, true
	case "identifier":
		return NIdentifier, true
	case "identityKey":
		return NIdentityKey, true
	case "inLanguage":
		return NInLanguage, true
	case "isCurrent":
		return NIsCurrent, true
	case "jurisdiction":
		return NJurisdiction, true
	case "license":
		return NLicense, true
	case "name":
		return NName, true
	case "normalizedStatementType":
		return NNormalizedStatementType, true
	case "provider":
		return NProvider, true
	case "statementCode":
		return NStatementCode, true
	case "statementType":
		return NStatementType, true
	case "tags":
		return NTags, true
	case "listEnumeration":
		return NListEnumeration, true
	}
	return 0, false
}

// relPropOf returns the relationship property named key (RelPropNames).
func relPropOf(key string) (RelProp, bool) {
	switch key {
	case "attributionStatement":
		return RAttributionStatement, true
	case "author":
		return RAuthor, true
	case "description":
		return RDescription, true
	case "identifier":
		return RIdentifier, true
	case "license":
		return RLicense, true
	case "provider":
		return RProvider, true
	case "relationshipType":
		return RRelationshipType, true
	case "resolutionStatus":
		return RResolutionStatus, true
	case "sourceEntity":
		return RSourceEntity, true
	case "sourceEntityKey":
		return RSourceEntityKey, true
	case "sourceEntityValue":
		return RSourceEntityValue, true
	case "supportConfidence":
		return RSupportConfidence, true
	case "targetEntity":
		return RTargetEntity, true
	case "targetEntityKey":
		return RTargetEntityKey, true
	case "targetEntityValue":
		return RTargetEntityValue, true
	case "sequenceNumber":
		return RSequenceNumber, true
	}
	return 0, false
}

// Properties whose values repeat from record to record (the same licence,
// attribution, entity kind… on every record): the table stores each once.
const (
	nodeRepeated = 1<<NAcademicSubject | 1<<NAdoptionStatus | 1<<NAttributionStatement | 1<<NAuthor |
		1<<NGradeLevel | 1<<NInLanguage | 1<<NIsCurrent | 1<<NJurisdiction | 1<<NLicense |
		1<<NNormalizedStatementType | 1<<NProvider | 1<<NStatementType | 1<<NTags
	relRepeated = 1<<RAttributionStatement | 1<<RAuthor | 1<<RDescription | 1<<RLicense | 1<<RProvider |
		1<<RRelationshipType | 1<<RResolutionStatus | 1<<RSourceEntity | 1<<RSourceEntityKey |
		1<<RSupportConfidence | 1<<RTargetEntity | 1<<RTargetEntityKey
)

func (d *decoder) node(v *jsonv.Value) {
	id := ""
	if iv := v.Get("identifier"); iv != nil && iv.Kind == jsonv.String {
		id = iv.Str
	}
	e := &envelope{d: d, v: v, record: id, known: nodeEnvelope}
	if t, ok := e.str("type"); ok && t != "node" {
		d.add(finding.JSONLEnvelopeInvalid, id, "type", "type is %q; the nodes artifact holds only node records", t)
		return
	}
	before := d.envelopes
	n := &Node{Line: d.line}
	n.ID, _ = e.str("identifier")
	n.Labels = e.labels("labels")
	vals := &d.nvals
	clear(vals[:])
	e.properties(func(key, val string) {
		p, known := nodePropOf(key)
		if !known {
			return
		}
		vals[p] = val
		n.has |= 1 << p
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
			list, ok := d.stringArray(val)
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
	d.storeNode(n)
	d.res.Nodes = append(d.res.Nodes, n)
}

// storeNode stores the node's property values and ID: repeated values and the
// properties equal to the ID in the table, the rest in the record; the ID is
// registered in the table.
func (d *decoder) storeNode(n *Node) {
	t, vals := d.tab, d.nvals[:]
	n.tab = t
	idIndex, known := t.Lookup(n.ID)
	sameAsID := uint32(0)
	for p := range vals {
		bit := uint32(1) << p
		if n.has&bit == 0 {
			continue
		}
		if (p == int(NIdentifier) || p == int(NCaseIdentifierUUID)) && vals[p] == n.ID {
			sameAsID |= bit
			continue
		}
		if nodeRepeated&bit != 0 {
			if i, ok := d.intern(p, vals[p]); ok {
				n.shared |= bit
				n.props[p] = i
			}
		}
	}
	if !known {
		// The ID is stored once, after the inline values.
		n.shared |= sameAsID
		n.vals = n.pack(n.props[:], vals, n.ID)
		n.ID = n.vals[len(n.vals)-len(n.ID):]
		idIndex = t.add(n.ID)
	} else {
		// A repeated node ID (reported by the gate) shares the first one's.
		n.shared |= sameAsID
		n.vals = n.pack(n.props[:], vals, "")
		n.ID = t.String(idIndex)
	}
	for p := range vals {
		if sameAsID&(1<<p) != 0 {
			n.props[p] = idIndex
		}
	}
	clear(vals)
	// The first node with this ID (the string may be an earlier repeated
	// value that equals it) is the one NodeIndex finds.
	if t.node[idIndex] < 0 {
		t.node[idIndex] = int32(len(d.res.Nodes))
		t.nodeIDs++
	}
}

func (d *decoder) relationship(v *jsonv.Value, line []byte, end int64) {
	id := ""
	if iv := v.Get("identifier"); iv != nil && iv.Kind == jsonv.String {
		id = iv.Str
	}
	e := &envelope{d: d, v: v, record: id, known: relEnvelope}
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
	vals := &d.rvals
	clear(vals[:])
	e.properties(func(key, val string) {
		p, known := relPropOf(key)
		if !known {
			return
		}
		vals[p] = val
		r.has |= 1 << p
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
	var lineHash [32]byte
	if IsProgression(r.Label) {
		lineHash = sha256.Sum256(line)
	}
	d.order++
	r.Order = d.order
	if d.envelopeBroken(before) {
		return
	}
	d.storeRelationship(r)
	if IsProgression(r.Label) {
		if d.res.LineHashes == nil {
			d.res.LineHashes = map[int][32]byte{}
		}
		d.res.LineHashes[len(d.res.Relationships)] = lineHash
	}
	d.res.Relationships = append(d.res.Relationships, r)
}

// storeRelationship stores the relationship's values: repeated values and node
// IDs in the table, the rest in the record, each envelope string as a
// property equal to it when there is one.
func (d *decoder) storeRelationship(r *Relationship) {
	t, vals := d.tab, d.rvals[:]
	r.tab = t
	for p := range vals {
		bit := uint32(1) << p
		if r.has&bit == 0 {
			continue
		}
		i, ok := uint32(0), false
		switch {
		case relRepeated&bit != 0:
			i, ok = d.intern(p, vals[p])
		case (p == int(RSourceEntityValue) || p == int(RTargetEntityValue)) && t.nodeIDs > 0:
			i, ok = t.Lookup(vals[p])
		}
		if ok {
			r.shared |= bit
			r.props[p] = i
		}
	}
	// Each envelope string is a table string, or the stored property equal to
	// it, or stored after the inline values.
	envs := [...]struct {
		s    *string
		prop RelProp
	}{{&r.ID, RIdentifier}, {&r.Label, RRelationshipType}, {&r.Source, RSourceEntityValue}, {&r.Target, RTargetEntityValue}}
	const (
		fromTable = iota
		fromProp
		fromExtra
	)
	var how [len(envs)]uint8
	var extra strings.Builder
	for k, en := range envs {
		// The label is interned (a lookup first, as intern does); the ID
		// and endpoints can be table strings only when the table holds
		// node IDs (or, by chance, when they equal a repeated value, which
		// only saves memory: a table without node IDs is not searched).
		i, ok := uint32(0), false
		switch {
		case en.s == &r.Label:
			i, ok = d.intern(len(vals), *en.s)
		case t.nodeIDs > 0:
			i, ok = t.Lookup(*en.s)
		}
		switch {
		case ok:
			*en.s, how[k] = t.String(i), fromTable
		case r.has&(1<<en.prop) != 0 && vals[en.prop] == *en.s:
			how[k] = fromProp
		default:
			how[k] = fromExtra
			extra.WriteString(*en.s)
		}
	}
	r.vals = r.pack(r.props[:], vals, extra.String())
	off := len(r.vals) - extra.Len()
	for k, en := range envs {
		switch how[k] {
		case fromProp:
			*en.s = r.Str(en.prop)
		case fromExtra:
			*en.s = r.vals[off : off+len(*en.s)]
			off += len(*en.s)
		}
	}
	clear(vals)
}

// envelopeBroken reports whether the record being decoded got an envelope
// finding since the count was before: such a record is left out of the
// decoded graph (its problem is reported; checks on the rest of the graph
// still run).
func (d *decoder) envelopeBroken(before int) bool { return d.envelopes > before }

// stringArray decodes a JSON array of strings held in a string property; equal
// properties share one list through the table.
func (d *decoder) stringArray(s string) ([]string, bool) {
	t := d.tab
	t.key = append(append(t.key[:0], 'A'), s...)
	if l, ok := t.lists[string(t.key)]; ok {
		return l, true
	}
	v, errs := d.inner.Parse([]byte(s))
	if v == nil || len(errs) > 0 || v.Kind != jsonv.Array {
		return nil, false
	}
	for _, el := range v.Arr {
		if el.Kind != jsonv.String {
			return nil, false
		}
	}
	return t.list(t.key, func() []string { return cloneStrings(v.Arr) }), true
}

func clip(s string) string {
	if len(s) > 80 {
		return s[:80] + "…"
	}
	return s
}
