package mcpserver_test

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/kgc-project/kgc/internal/imgtest"
	"github.com/kgc-project/kgc/runtime/mcpserver"
)

func sha(b []byte) string {
	s := sha256.Sum256(b)
	return "sha256:" + hex.EncodeToString(s[:])
}

// readAll reads a resource window by window through read_evidence, replaying
// page.nextRequest, and returns the joined bytes and the metadata.
func readAll(t *testing.T, cs *mcp.ClientSession, uri string, window int) ([]byte, map[string]any, int) {
	t.Helper()
	r := map[string]any{"uri": uri, "maxContentBytes": window}
	var joined []byte
	for calls := 1; calls < 10000; calls++ {
		out, txt := lpCall(t, cs, "read_evidence", r)
		if out == nil {
			t.Fatalf("read_evidence %s: %s", uri, txt)
		}
		page := out["page"].(map[string]any)
		chunk := []byte(out["content"].(string))
		if int(page["startByte"].(float64)) != len(joined) || int(page["returnedBytes"].(float64)) != len(chunk) ||
			len(chunk) > window || page["chunkSha256"] != sha(chunk) || !utf8.Valid(chunk) {
			t.Fatalf("window %v does not continue the bytes read so far (%d)", page, len(joined))
		}
		joined = append(joined, chunk...)
		if page["isComplete"] == true {
			status := "partial"
			if calls == 1 {
				status = "full"
			}
			if out["contentStatus"] != status || page["nextRequest"] != nil {
				t.Errorf("last window: status %v, next %v", out["contentStatus"], page["nextRequest"])
			}
			return joined, out["metadata"].(map[string]any), calls
		}
		if out["contentStatus"] != "partial" {
			t.Errorf("a middle window says %v", out["contentStatus"])
		}
		r = page["nextRequest"].(map[string]any)
	}
	t.Fatal("reading did not end")
	return nil, nil, 0
}

func TestReadEvidenceWindowsRejoinTheResource(t *testing.T) {
	t.Parallel()
	imgtest.Heavy(t)
	cs, srv := client(t, images(t))
	mathSnap, base := mathsBase(srv)
	ind := mathIndicator(t, cs)
	for _, c := range []struct {
		uri    string
		window int
	}{
		{base + "/manifest", 4096}, {base + "/manifest", 32768}, {"kgfegmcp://catalog", 3}, {"kgfegmcp://catalog", 1000},
		{base + "/standard/" + ind, 16384}, {base + "/learning-progressions", 512}, {base + "/interpretation-profile", 7777},
	} {
		native, err := read(t, cs, c.uri)
		if err != nil {
			t.Fatal(err)
		}
		want := native.Blob
		if want == nil {
			want = []byte(native.Text)
		}
		got, meta, calls := readAll(t, cs, c.uri, c.window)
		if !bytes.Equal(got, want) || meta["contentSha256"] != sha(got) || meta["contentSha256"] != native.Meta["contentSha256"] {
			t.Errorf("%s in windows of %d: %d bytes in %d calls, native %d", c.uri, c.window, len(got), calls, len(want))
		}
	}
	// A percent-encoded spelling of a valid URI is read and named canonically.
	spelled := "kgfegmcp://framework/" + strings.ReplaceAll(maths, "-", "%2D") + "/snapshot/" + strings.NewReplacer("@", "%40", "+", "%2b").Replace(mathSnap) + "/manifest"
	out, txt := lpCall(t, cs, "read_evidence", map[string]any{"uri": spelled})
	if out == nil || out["metadata"].(map[string]any)["canonicalUri"] != base+"/manifest" {
		t.Errorf("encoded spelling: %s", txt)
	}
}

func TestReadEvidenceRefusals(t *testing.T) {
	cs, srv := client(t, images(t))
	_, base := mathsBase(srv)
	for uri, want := range map[string]string{
		base + "/manifest?x=1":               "invalid_evidence_uri",
		base + "/manifest#top":               "invalid_evidence_uri",
		"kgfegmcp://catalog:443":             "invalid_evidence_uri",
		"kgfegmcp://user@framework/" + maths: "invalid_evidence_uri",
		base + "//manifest":                  "invalid_evidence_uri",
		// An encoded "/" or "%" or dot segment is part of the ID, decoded
		// once (such IDs pass the gate); a literal dot segment is refused.
		base + "/standard/a%2Fb":                 "standard_not_found",
		base + "/standard/%2E%2E":                "standard_not_found",
		base + "/standard/a%252Fb":               "standard_not_found",
		base + "/standard/..":                    "invalid_evidence_uri",
		base + "/standard/../provenance":         "invalid_evidence_uri",
		base + "/standard/{node_id}":             "invalid_evidence_uri",
		base + "/manifest/extra":                 "invalid_evidence_uri",
		"https://example.org/x":                  "invalid_evidence_uri",
		base + "/artifact/nodes":                 "resource_access_denied",
		base + "/standard/no-such-node":          "standard_not_found",
		base + "/relationship/no-such-edge":      "resource_not_found",
		"kgfegmcp://framework/no-such-framework": "framework_not_found",
		"kgfegmcp://framework/" + maths + "/snapshot/" + maths + "%402026%2B000000000000/manifest": "framework_not_found",
	} {
		_, txt := lpCall(t, cs, "read_evidence", map[string]any{"uri": uri})
		if !strings.HasPrefix(txt, want+": ") {
			t.Errorf("%s: %q, want %s", uri, txt, want)
		}
		if strings.Contains(txt, "/tmp/") {
			t.Errorf("%s: the error names a local path: %q", uri, txt)
		}
	}
	out, _ := lpCall(t, cs, "read_evidence", map[string]any{"uri": base + "/manifest", "maxContentBytes": 1000})
	next := out["page"].(map[string]any)["nextRequest"].(map[string]any)
	for name, edit := range map[string]func(map[string]any){
		"window changed": func(r map[string]any) { r["maxContentBytes"] = 999 },
		"other resource": func(r map[string]any) { r["uri"] = "kgfegmcp://catalog" },
		"tampered":       func(r map[string]any) { c := r["cursor"].(string); r["cursor"] = c[:len(c)-2] + "AA" },
	} {
		r := merged(next, nil)
		edit(r)
		if _, txt := lpCall(t, cs, "read_evidence", r); !strings.HasPrefix(txt, "invalid_cursor: ") {
			t.Errorf("%s: %q", name, txt)
		}
	}
	if _, txt := lpCall(t, cs, "read_evidence", map[string]any{"uri": "kgfegmcp://catalog", "maxContentBytes": 32769}); !strings.HasPrefix(txt, "Input validation error: ") {
		t.Errorf("window too large: %q", txt)
	}
}

// mathsBase returns the mathematics sample's snapshot ID and the resource URI
// prefix of that snapshot.
func mathsBase(srv *mcpserver.Server) (string, string) {
	for _, p := range srv.Catalog().Packages {
		if p.FrameworkID() == maths {
			return p.SnapshotID(), "kgfegmcp://framework/" + maths + "/snapshot/" + strings.NewReplacer("@", "%40", "+", "%2B").Replace(p.SnapshotID())
		}
	}
	return "", ""
}
