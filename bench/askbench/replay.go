package main

import (
	"encoding/json"
	"fmt"
	"regexp"
	"strings"
)

// question is one realistic question and the calls a careful model makes to
// answer it from the tool list and the text of each result alone.
type question struct {
	ID    string // short key: q1 … q10
	Asker string // teacher or officer
	Text  string // the question as the user asks it
	Steps []step
	Facts []fact // what a correct, citable answer needs, found in the text of the results
}

// step is one tool call. Args is the call's JSON arguments; {{name}} stands
// for a value an earlier step extracted from its text (JSON-escaped when
// filled in).
type step struct {
	Tool    string
	Args    string
	Extract []extract
	// Needed, when set, says why the call is needed with today's server
	// ("needed because …"): a call a better answer elsewhere would remove.
	Needed string
}

// extract takes a value from a step's text, as the model reads it: Pattern is
// a regular expression with one capture group, where <id> stands for a UUID.
// A pattern that does not match means the model could not continue.
type extract struct {
	Name    string
	Pattern string
}

// fact is one thing a correct, citable answer needs. It is found when every
// string of one of its alternatives occurs in the text of the question's
// results (runs of white space count as one space), or, with Re, when the
// regular expression matches the text.
type fact struct {
	Name string
	Any  [][]string
	Re   string
}

var (
	placeholderRe = regexp.MustCompile(`\{\{([A-Za-z0-9_]+)\}\}`)
	spaceRe       = regexp.MustCompile(`\s+`)
)

const uuidPattern = `[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}`

// compileExtract compiles an extraction pattern, <id> standing for a UUID.
func compileExtract(p string) (*regexp.Regexp, error) {
	re, err := regexp.Compile(strings.ReplaceAll(p, "<id>", uuidPattern))
	if err != nil {
		return nil, err
	}
	if re.NumSubexp() != 1 {
		return nil, fmt.Errorf("pattern %q has %d capture groups, want 1", p, re.NumSubexp())
	}
	return re, nil
}

// fill replaces every {{name}} of args by its JSON-escaped value and returns
// the names that have no value.
func fill(args string, vars map[string]string) (string, []string) {
	var missing []string
	out := placeholderRe.ReplaceAllStringFunc(args, func(m string) string {
		name := placeholderRe.FindStringSubmatch(m)[1]
		v, ok := vars[name]
		if !ok {
			missing = append(missing, name)
			return m
		}
		b, _ := json.Marshal(v)
		return string(b[1 : len(b)-1])
	})
	return out, missing
}

// found reports whether the fact holds in text.
func (f fact) found(text string) bool {
	if f.Re != "" {
		return regexp.MustCompile(f.Re).MatchString(text)
	}
	norm := spaceRe.ReplaceAllString(text, " ")
	for _, alt := range f.Any {
		all := true
		for _, s := range alt {
			if !strings.Contains(norm, spaceRe.ReplaceAllString(s, " ")) {
				all = false
				break
			}
		}
		if all {
			return true
		}
	}
	return false
}

// validate checks the script before anything runs: unique IDs, every
// placeholder extracted by an earlier step, arguments that are JSON objects
// once filled, patterns that compile with one capture group, facts that are
// well formed.
func validate(script []question) error {
	ids := map[string]bool{}
	defined := map[string]bool{}
	for _, q := range script {
		if q.ID == "" || ids[q.ID] {
			return fmt.Errorf("question %q: empty or repeated ID", q.ID)
		}
		ids[q.ID] = true
		if len(q.Steps) == 0 || len(q.Facts) == 0 {
			return fmt.Errorf("%s: a question needs steps and facts", q.ID)
		}
		for i, s := range q.Steps {
			dummy := map[string]string{}
			for name := range defined {
				dummy[name] = "x"
			}
			filled, missing := fill(s.Args, dummy)
			if len(missing) > 0 {
				return fmt.Errorf("%s step %d: {{%s}} is not extracted by an earlier step", q.ID, i+1, missing[0])
			}
			var obj map[string]any
			if err := json.Unmarshal([]byte(filled), &obj); err != nil {
				return fmt.Errorf("%s step %d: arguments are not a JSON object: %v", q.ID, i+1, err)
			}
			if s.Needed != "" && !strings.HasPrefix(s.Needed, "needed because ") {
				return fmt.Errorf("%s step %d: Needed must start with \"needed because \"", q.ID, i+1)
			}
			for _, e := range s.Extract {
				if _, err := compileExtract(e.Pattern); err != nil {
					return fmt.Errorf("%s step %d: %v", q.ID, i+1, err)
				}
				if defined[e.Name] {
					return fmt.Errorf("%s step %d: {{%s}} is extracted twice", q.ID, i+1, e.Name)
				}
				defined[e.Name] = true
			}
		}
		for _, f := range q.Facts {
			if f.Name == "" || (f.Re == "") == (len(f.Any) == 0) {
				return fmt.Errorf("%s: fact %q needs a name and either Any or Re", q.ID, f.Name)
			}
			if f.Re != "" {
				if _, err := regexp.Compile(f.Re); err != nil {
					return fmt.Errorf("%s: fact %q: %v", q.ID, f.Name, err)
				}
			}
			for _, alt := range f.Any {
				if len(alt) == 0 {
					return fmt.Errorf("%s: fact %q has an empty alternative", q.ID, f.Name)
				}
			}
		}
	}
	return nil
}

// stepResult is what one call cost and returned.
type stepResult struct {
	Tool            string          `json:"tool"`
	Arguments       json.RawMessage `json:"arguments"`
	Needed          string          `json:"needed,omitempty"`
	TextBytes       int             `json:"textBytes"`
	StructuredBytes int             `json:"structuredBytes"`
	TextBlocks      int             `json:"textBlocks"`
	OtherBlocks     int             `json:"otherBlocks"` // resource_link and others, which the model does not read
	Error           string          `json:"error,omitempty"`
	Text            string          `json:"-"`
}

// questionResult is one question's replay.
type questionResult struct {
	ID              string       `json:"id"`
	Asker           string       `json:"asker"`
	Question        string       `json:"question"`
	Calls           int          `json:"calls"`
	TextBytes       int          `json:"textBytes"`
	StructuredBytes int          `json:"structuredBytes"`
	FactsFound      int          `json:"factsFound"`
	FactsRequired   int          `json:"factsRequired"`
	MissingFacts    []string     `json:"missingFacts"`
	Steps           []stepResult `json:"steps"`
	Failures        []string     `json:"failures"`
}

// replay runs the script over c in order, as one conversation: values
// extracted by earlier questions stay available to later ones.
func replay(c *client, script []question) ([]questionResult, error) {
	if err := validate(script); err != nil {
		return nil, fmt.Errorf("script: %w", err)
	}
	vars := map[string]string{}
	var out []questionResult
	for _, q := range script {
		qr := questionResult{ID: q.ID, Asker: q.Asker, Question: q.Text, MissingFacts: []string{}, Failures: []string{}}
		var texts []string
		for i, s := range q.Steps {
			sr := stepResult{Tool: s.Tool, Needed: s.Needed}
			args, missing := fill(s.Args, vars)
			sr.Arguments = json.RawMessage(args)
			if len(missing) > 0 {
				sr.Arguments = json.RawMessage(mustJSON(s.Args))
				sr.Error = fmt.Sprintf("not called: {{%s}} was not found in an earlier result's text", missing[0])
				qr.Failures = append(qr.Failures, fmt.Sprintf("step %d %s: %s", i+1, s.Tool, sr.Error))
				qr.Steps = append(qr.Steps, sr)
				continue
			}
			qr.Calls++
			res, err := c.callTool(s.Tool, json.RawMessage(args))
			if err != nil {
				sr.Error = err.Error()
				qr.Failures = append(qr.Failures, fmt.Sprintf("step %d %s: %s", i+1, s.Tool, sr.Error))
				qr.Steps = append(qr.Steps, sr)
				continue
			}
			var blocks []string
			for _, b := range res.Content {
				if b.Type == "text" {
					sr.TextBlocks++
					sr.TextBytes += len(b.Text)
					blocks = append(blocks, b.Text)
				} else {
					sr.OtherBlocks++
				}
			}
			sr.Text = strings.Join(blocks, "\n")
			sr.StructuredBytes = len(res.StructuredContent)
			if res.IsError {
				sr.Error = "tool error: " + firstLine(sr.Text)
				qr.Failures = append(qr.Failures, fmt.Sprintf("step %d %s: %s", i+1, s.Tool, sr.Error))
			}
			for _, e := range s.Extract {
				re, _ := compileExtract(e.Pattern)
				if m := re.FindStringSubmatch(sr.Text); m != nil {
					vars[e.Name] = m[1]
				} else {
					qr.Failures = append(qr.Failures, fmt.Sprintf("step %d %s: {{%s}} not found in its text (pattern %s): the model could not continue", i+1, s.Tool, e.Name, e.Pattern))
				}
			}
			qr.TextBytes += sr.TextBytes
			qr.StructuredBytes += sr.StructuredBytes
			texts = append(texts, sr.Text)
			qr.Steps = append(qr.Steps, sr)
		}
		all := strings.Join(texts, "\n")
		qr.FactsRequired = len(q.Facts)
		for _, f := range q.Facts {
			if f.found(all) {
				qr.FactsFound++
			} else {
				qr.MissingFacts = append(qr.MissingFacts, f.Name)
			}
		}
		out = append(out, qr)
	}
	return out, nil
}

// mustJSON returns s as a JSON string value (for arguments that could not be
// filled, so the report stays valid JSON).
func mustJSON(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

func firstLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i]
	}
	return s
}
