// Package transcript reads and writes the golden transcripts of kgmcp's
// answers (cmd/kgmcp/testdata/transcripts): txtar archives holding a
// comment, the request line, the exact response line and, for a tool result
// whose text a model reads, that text unescaped for reviewers.
package transcript

import (
	"fmt"
	"strings"

	"golang.org/x/tools/txtar"
)

// Transcript is one golden file. Request and Response are single lines
// (without their newline); Text is the readable text of the result, or "".
type Transcript struct {
	Comment  string
	Request  string
	Response string
	Text     string
}

// Section names, in file order.
const (
	requestFile  = "request"
	responseFile = "response"
	textFile     = "text"
)

// Parse reads a transcript: a comment, a one-line request, a one-line
// response (it may be missing in a file not yet recorded) and an optional
// text section.
func Parse(data []byte) (Transcript, error) {
	a := txtar.Parse(data)
	t := Transcript{Comment: string(a.Comment)}
	seen := map[string]bool{}
	for _, f := range a.Files {
		if seen[f.Name] {
			return Transcript{}, fmt.Errorf("two %q sections", f.Name)
		}
		seen[f.Name] = true
		body := string(f.Data)
		switch f.Name {
		case requestFile:
			t.Request = strings.TrimSuffix(body, "\n")
		case responseFile:
			t.Response = strings.TrimSuffix(body, "\n")
		case textFile:
			t.Text = strings.TrimSuffix(body, "\n")
		default:
			return Transcript{}, fmt.Errorf("unknown section %q", f.Name)
		}
	}
	if !seen[requestFile] {
		return Transcript{}, fmt.Errorf("no %q section", "-- request --")
	}
	if strings.Contains(t.Request, "\n") || strings.Contains(t.Response, "\n") {
		return Transcript{}, fmt.Errorf("the request and the response must be one line each")
	}
	return t, nil
}

// Format writes a transcript as Parse reads it (the text section only when
// there is text).
func (t Transcript) Format() []byte {
	a := &txtar.Archive{Comment: []byte(t.Comment), Files: []txtar.File{
		{Name: requestFile, Data: []byte(t.Request + "\n")},
		{Name: responseFile, Data: []byte(t.Response + "\n")},
	}}
	if t.Text != "" {
		a.Files = append(a.Files, txtar.File{Name: textFile, Data: []byte(t.Text + "\n")})
	}
	return txtar.Format(a)
}
