package gate

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"strings"
	"sync"

	"github.com/kgc-project/kgc/compiler/delivery"
	"github.com/kgc-project/kgc/internal/canonjson"
	"github.com/kgc-project/kgc/internal/jsonv"
	"github.com/kgc-project/kgc/schema/finding"
	"github.com/kgc-project/kgc/schema/ids"
	"github.com/kgc-project/kgc/schema/manifest"
)

// doc is a decoded detailed artifact, kept only as long as its checks need it.
type doc struct {
	name string
	path string
	v    *jsonv.Value
	// claims are the final claims (nil unless the document is an object
	// with a claims array; v is then only the top-level kind).
	claims *finalClaims
}

// present reports whether a declared artifact can be read: its path is valid
// and a regular file is there.
func (s *state) present(name string) (string, bool) {
	a, ok := s.res.Manifest.Artifact(name)
	if !ok || s.invalidPaths[a.Path] || !s.files[a.Path] {
		return "", false
	}
	return a.Path, true
}

func digest(b []byte) string { return ids.Sha256(b) }

// verify compares a computed digest with the manifest's checksum and marks the
// artifact usable when they agree.
func (s *state) verify(name, path, got string, size int64) bool {
	want := s.res.Manifest.Checksums[path]
	if want == "" {
		return false // reported by the checksum closure check
	}
	if got != want {
		s.add(finding.New(finding.ArtifactChecksumMismatch, "artifact %s (%s) has SHA-256 %s but the manifest declares %s", name, path, got, want).At(name, path))
		return false
	}
	s.usable[name] = true
	s.res.ArtifactSizes[path] = size
	return true
}

// checkArtifacts verifies the checksum of every present artifact that no later
// stage reads in full (those are verified as they are decoded).
func (s *state) checkArtifacts() error {
	for _, a := range s.res.Manifest.Artifacts {
		if decodedLater(a.Name) {
			continue
		}
		p, ok := s.present(a.Name)
		if !ok {
			continue
		}
		f, ok, err := s.openFile(a.Name, p, finding.StageArtifacts)
		if err != nil {
			return err
		}
		if !ok {
			continue
		}
		h := sha256.New()
		n, err := io.Copy(h, f)
		f.Close()
		if err != nil {
			return fmt.Errorf("read %s: %w", p, err)
		}
		s.verify(a.Name, p, "sha256:"+hex.EncodeToString(h.Sum(nil)), n)
	}
	return nil
}

// decodedLater reports whether an artifact is read, hashed and decoded by a later
// stage: the delivery files, the detailed JSON documents the gate checks, and the
// learning-progression evidence.
func decodedLater(name string) bool {
	if name == manifest.Nodes || name == manifest.Relationships {
		return true
	}
	_, shard := manifest.ShardIndex(name)
	return shard || manifest.IsBuiltin(name)
}

func stageOf(name string) finding.Stage {
	if _, shard := manifest.ShardIndex(name); shard || manifest.IsLP(name) {
		return finding.StageProgressions
	}
	if name == manifest.PublisherRelations {
		return finding.StageGraph
	}
	return finding.StageReport
}

// readDocuments reads, verifies and parses every built-in detailed artifact and
// every provenance shard, one at a time.
func (s *state) readDocuments() error {
	s.docs = map[string]*doc{}
	for _, a := range s.res.Manifest.Artifacts {
		if !decodedLater(a.Name) || a.Name == manifest.Nodes || a.Name == manifest.Relationships {
			continue
		}
		p, ok := s.present(a.Name)
		if !ok {
			continue
		}
		b, ok, err := s.readFile(a.Name, p, MaxDocumentBytes, stageOf(a.Name))
		if err != nil {
			return err
		}
		if !ok || !s.verify(a.Name, p, digest(b), int64(len(b))) {
			continue
		}
		if strings.HasSuffix(p, ".jsonl") {
			s.readJSONL(a.Name, p, b)
			continue
		}
		if s.scanDocument(a.Name, p, b) {
			continue
		}
		var is jsonv.Issues
		v := manifest.ParseDocument(b, &is)
		if is.Len() > 0 {
			s.add(finding.FromIssues(is.List, stageOf(a.Name), a.Name, p)...)
			s.usable[a.Name] = false
			continue
		}
		s.keepDocument(a.Name, p, v)
	}
	return nil
}

// readJSONL checks a detailed JSONL artifact line by line (one strict object per
// line) and keeps the line hashes of the split progression files.
func (s *state) readJSONL(name, path string, b []byte) {
	var hashes [][32]byte
	lines := bytes.Split(b, []byte("\n"))
	if len(lines) > 0 && len(lines[len(lines)-1]) == 0 {
		lines = lines[:len(lines)-1]
	}
	bad := false
	for i, line := range lines {
		f := func(format string, args ...any) {
			s.add(finding.New(finding.JSONLParsingError, format, args...).WithStage(stageOf(name)).At(name, path).OnLine(i + 1))
			bad = true
		}
		if len(line) == 0 {
			f("blank line: every line must hold one JSON object")
			continue
		}
		var v *jsonv.Value
		var errs []*jsonv.Error
		if name == manifest.PublisherRelations {
			v, errs = jsonv.Parse(line) // the relations keep its strings
		} else {
			v, errs = s.ps.Parse(line) // only the line's hash is kept
		}
		if len(errs) > 0 {
			f("%s", errs[0].Msg)
			continue
		}
		if v.Kind != jsonv.Object {
			f("a line must hold a JSON object, not %s", v.Kind)
			continue
		}
		if name == manifest.PublisherRelations {
			s.decodePublisherRelation(path, v, i+1)
			continue
		}
		hashes = append(hashes, sha256.Sum256(line))
	}
	if bad {
		s.usable[name] = false
		return
	}
	if name == manifest.LPBuildsTowards || name == manifest.LPRelatesTo {
		s.splitLines[name] = hashes
	}
}

// keepDocument keeps a parsed JSON artifact for the checks that read it
// (the documents scanDocument does not read part by part).
func (s *state) keepDocument(name, path string, v *jsonv.Value) {
	s.docs[name] = &doc{name: name, path: path, v: v}
	switch name {
	case manifest.LPSummary, manifest.LPValidation, manifest.LPUnresolved:
		if s.res.ProgressionReports == nil {
			s.res.ProgressionReports = map[string][]byte{}
		}
		s.res.ProgressionReports[name] = canonjson.Encode(v)
	}
}

// deliveryDecode is the decoding of the nodes and relationships artifacts
// under way (startDelivery): one streaming pass each, in a goroutine of its
// own, verifying the checksum as it reads, while the gate goes on with the
// detailed documents; finish reports them in file order. A file whose
// checksum is wrong contributes nothing but that finding. On a
// million-standard package the decodes are a fifth of the gate and
// single-threaded each.
type deliveryDecode struct {
	wg    sync.WaitGroup
	files []*decodedFile
}

type decodedFile struct {
	name, path string
	kind       delivery.Kind
	res        *delivery.Result
	err        error
}

// startDelivery opens the delivery files and starts decoding them.
func (s *state) startDelivery() (*deliveryDecode, error) {
	d := &deliveryDecode{}
	for _, name := range []string{manifest.Nodes, manifest.Relationships} {
		p, ok := s.present(name)
		if !ok {
			continue
		}
		f, size, ok, err := s.openSized(name, p, finding.StageDelivery)
		if err != nil {
			d.wg.Wait()
			return nil, err
		}
		if !ok {
			continue
		}
		df := &decodedFile{name: name, path: p, kind: delivery.NodesFile}
		if name == manifest.Relationships {
			df.kind = delivery.RelationshipsFile
		}
		d.files = append(d.files, df)
		d.wg.Add(1)
		go func() {
			defer d.wg.Done()
			defer f.Close()
			df.res, df.err = delivery.NewTable().DecodeSized(f, size, df.kind, df.name, df.path)
		}()
	}
	return d, nil
}

// finish waits for the decodes and takes their records and findings, in
// file order.
func (d *deliveryDecode) finish(s *state) error {
	d.wg.Wait()
	for _, df := range d.files {
		if df.err != nil {
			return df.err
		}
	}
	for _, df := range d.files {
		if !s.verify(df.name, df.path, df.res.Sha256, df.res.Size) {
			continue
		}
		s.res.Findings.Merge(&df.res.Findings)
		if df.kind == delivery.NodesFile {
			s.res.Nodes = df.res.Nodes
			s.res.NodeIndex = df.res.Table.NodeIndex
		} else {
			s.res.Relationships = df.res.Relationships
			s.lineHashes = df.res.LineHashes
		}
	}
	return nil
}
