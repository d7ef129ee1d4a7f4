package main

import (
	"encoding/json"
	"strings"
	"testing"
)

// amplifiers are requests of 0.4–0.8 MB whose error answers quoted them back:
// params the SDK cannot decode (quoted twice escaped: 0.9 MB in, 3.6 MB
// out), unknown tool, prompt and resource names, an unknown field name.
func amplifiers() []string {
	big, _ := json.Marshal(strings.Split(strings.Repeat(`a"b`+"\x00", 100000), "\x00"))
	long := strings.Repeat("x", 400000)
	call := func(id int, method, params string) string { return rpc(id, method, params) }
	return []string{
		call(1, "tools/call", `{"name":`+string(big)+`,"arguments":{}}`),
		call(2, "prompts/get", `{"name":"x","arguments":{"a":`+string(big)+`}}`),
		call(3, "resources/read", `{"uri":`+string(big)+`}`),
		call(4, "completion/complete", `{"ref":`+string(big)+`}`),
		call(5, "tools/call", `{"name":"`+long+`","arguments":{}}`),
		call(6, "prompts/get", `{"name":"`+long+`"}`),
		call(7, "resources/read", `{"uri":"kgfegmcp://`+long+`"}`),
		call(8, "completion/complete", `{"ref":{"type":"ref/prompt","name":"`+long+`"},"argument":{"name":"a","value":"b"}}`),
		call(9, "tools/call", `{"name":"search_standards","arguments":{"request":{"mode":"text","query":"a","`+long+`":1}}}`),
		call(10, "tools/call", `{"name":"search_standards","arguments":{"request":{"mode":"text","query":"a"}`+strings.Repeat(`,"x":[`, 1001)+strings.Repeat("]", 1001)+`}}`),
	}
}

// maxEcho is what an error answer may take: a few hundred bytes of quoted
// request, marked as cut, plus the envelope.
const maxEcho = 1500

func TestErrorAnswersDoNotAmplifyTheirRequestOverStdio(t *testing.T) {
	c := startStdio(t, shippedImages(t))
	c.send(t, initLine, initializedLine)
	c.next(t)
	for _, req := range amplifiers() {
		c.send(t, req)
		line := c.nextRaw(t)
		m := decodeLine(t, line)
		if m["error"] == nil && m["result"].(map[string]any)["isError"] != true {
			t.Errorf("%.60s…: not refused: %.200s", req, line)
		}
		if len(line) > maxEcho {
			t.Errorf("%.60s… (%d bytes): a %d-byte answer: %.300s", req, len(req), len(line), line)
		}
	}
}

func TestErrorAnswersDoNotAmplifyTheirRequestOverHTTP(t *testing.T) {
	s := startHTTP(t, shippedImages(t))
	for _, req := range amplifiers() {
		_, body, err := s.post(t, req)
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(body, `"error"`) && !strings.Contains(body, `"isError":true`) {
			t.Errorf("%.60s…: not refused: %.200s", req, body)
		}
		if len(body) > maxEcho {
			t.Errorf("%.60s… (%d bytes): a %d-byte answer: %.300s", req, len(req), len(body), body)
		}
	}
}
