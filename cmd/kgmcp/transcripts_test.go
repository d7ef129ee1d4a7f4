package main

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/kgc-project/kgc/internal/imgtest"
)

var update = flag.Bool("update", false, "rewrite the responses of the golden transcripts in testdata/transcripts")

// TestTranscripts replays the golden transcripts: each testdata/transcripts
// file holds one request line exactly as a client sends it to kgmcp over
// stdio, and the exact response line kgmcp sent back. The samples' transcripts
// run over the shipped packages, the corpus's over the complete packages of
// ../shared/corpus. Any byte of difference fails; -update rewrites the
// responses (a new scenario is a file holding only its request):
//
//	go test ./cmd/kgmcp -run Transcripts -update
func TestTranscripts(t *testing.T) {
	t.Run("samples", func(t *testing.T) { replay(t, "testdata/transcripts/samples", shippedImages(t)) })
	t.Run("corpus", func(t *testing.T) { replay(t, "testdata/transcripts/corpus", corpusImages(t)) })
}

// corpusImages builds the complete corpus packages (skipping visibly without
// the corpus).
func corpusImages(t *testing.T) string {
	dirs, profiles, prompts := imgtest.CorpusPackages(t)
	out := t.TempDir()
	for _, d := range dirs {
		data, res := imgtest.Build(t, d, profiles, prompts)
		if err := os.WriteFile(filepath.Join(out, res.Manifest.SnapshotID+".kgimg"), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return out
}

// transcript is one golden file: a comment, the request and the response.
type transcript struct {
	comment, request, response string
}

const (
	requestMark  = "-- request --\n"
	responseMark = "-- response --\n"
)

func parseTranscript(b []byte) (transcript, error) {
	s := string(b)
	i := strings.Index(s, requestMark)
	if i < 0 {
		return transcript{}, fmt.Errorf("no %q section", strings.TrimSpace(requestMark))
	}
	tr := transcript{comment: s[:i]}
	rest := s[i+len(requestMark):]
	if j := strings.Index(rest, responseMark); j >= 0 {
		tr.request, tr.response = rest[:j], rest[j+len(responseMark):]
	} else {
		tr.request = rest
	}
	tr.request = strings.TrimSuffix(tr.request, "\n")
	tr.response = strings.TrimSuffix(tr.response, "\n")
	if strings.Contains(tr.request, "\n") {
		return transcript{}, fmt.Errorf("the request must be one line")
	}
	return tr, nil
}

func (tr transcript) bytes() []byte {
	return []byte(tr.comment + requestMark + tr.request + "\n" + responseMark + tr.response + "\n")
}

// replay sends every transcript of dir, in name order, on one stdio session
// over the images and compares (or, with -update, rewrites) the responses.
func replay(t *testing.T, dir, images string) {
	files, _ := filepath.Glob(filepath.Join(dir, "*.txtar"))
	if len(files) == 0 {
		t.Fatalf("no transcripts in %s", dir)
	}
	c := startStdio(t, images)
	c.send(t, initLine, initializedLine)
	c.next(t)
	for _, f := range files {
		name := strings.TrimSuffix(filepath.Base(f), ".txtar")
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		tr, err := parseTranscript(b)
		if err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		c.send(t, tr.request)
		if !c.out.Scan() {
			t.Fatalf("%s: kgmcp closed stdout: %v\n%s", name, c.out.Err(), tail(c.stderr.String()))
		}
		got := c.out.Text()
		if *update {
			if got != tr.response {
				tr.response = got
				if err := os.WriteFile(f, tr.bytes(), 0o644); err != nil {
					t.Fatal(err)
				}
				t.Logf("%s: rewritten", name)
			}
			continue
		}
		if got != tr.response {
			t.Errorf("%s: the response differs from the transcript at byte %d\n got: %.400s\nwant: %.400s",
				name, firstDiff(got, tr.response), got[min(firstDiff(got, tr.response), len(got)):], tr.response[min(firstDiff(got, tr.response), len(tr.response)):])
		}
	}
}

func firstDiff(a, b string) int {
	n := min(len(a), len(b))
	i := 0
	for i < n && a[i] == b[i] {
		i++
	}
	return i
}
