package main

import (
	"crypto/rand"
	"crypto/rsa"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	jose "github.com/go-jose/go-jose/v4"
	"github.com/go-jose/go-jose/v4/jwt"
)

const (
	testResource = "http://localhost/mcp"
	testIssuer   = "http://localhost/issuer"
)

// issuer signs test access tokens with a key whose public half is in a
// JWKS file.
type issuer struct {
	signer jose.Signer
	jwks   string
}

func newIssuer(t *testing.T, kid string) *issuer {
	t.Helper()
	key, err := rsa.GenerateKey(rand.Reader, 2048)
	if err != nil {
		t.Fatal(err)
	}
	signer, err := jose.NewSigner(jose.SigningKey{Algorithm: jose.RS256, Key: jose.JSONWebKey{Key: key, KeyID: kid}}, (&jose.SignerOptions{}).WithType("JWT"))
	if err != nil {
		t.Fatal(err)
	}
	set := jose.JSONWebKeySet{Keys: []jose.JSONWebKey{{Key: &key.PublicKey, KeyID: kid, Algorithm: "RS256", Use: "sig"}}}
	b, _ := json.Marshal(set)
	file := filepath.Join(t.TempDir(), "jwks.json")
	if err := os.WriteFile(file, b, 0o600); err != nil {
		t.Fatal(err)
	}
	return &issuer{signer: signer, jwks: file}
}

// token signs claims: the standard ones (iss, aud, sub, exp, nbf) and scope.
func (i *issuer) token(t *testing.T, iss, aud, scope string, exp time.Time) string {
	t.Helper()
	c := jwt.Claims{Issuer: iss, Audience: jwt.Audience{aud}, Subject: "teacher-42", Expiry: jwt.NewNumericDate(exp), NotBefore: jwt.NewNumericDate(time.Now().Add(-time.Minute))}
	s, err := jwt.Signed(i.signer).Claims(c).Claims(map[string]any{"scope": scope}).Serialize()
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// kgmcp as an OAuth protected resource: RFC 9728 metadata; 401 with
// resource_metadata for a missing, forged, expired, wrongly addressed or
// foreign token; 403 insufficient_scope for a token without a kgc scope; a
// kgc:framework: scope grants just that framework, kgc:read all; the
// subject, never the token, in the audit log.
func TestOAuthAccessTokens(t *testing.T) {
	dir := shippedImages(t)
	iss := newIssuer(t, "k1")
	srv := startHTTP(t, "--oauth-resource", testResource, "--oauth-issuer", testIssuer, "--oauth-jwks-file", iss.jwks, "--audit", dir)

	resp, err := http.Get(srv.base + "/.well-known/oauth-protected-resource/mcp")
	if err != nil {
		t.Fatal(err)
	}
	var meta map[string]any
	json.NewDecoder(resp.Body).Decode(&meta)
	resp.Body.Close()
	if meta["resource"] != testResource || !strings.Contains(mustJSON(meta["authorization_servers"]), testIssuer) {
		t.Errorf("protected resource metadata: %v", meta)
	}

	list := rpc(1, "tools/call", `{"name":"list_frameworks","arguments":{"request":{}}}`)
	call := func(token string) (int, string, http.Header) {
		r, _ := http.NewRequest("POST", srv.base+"/mcp", strings.NewReader(list))
		r.Header.Set("Content-Type", "application/json")
		r.Header.Set("Accept", "application/json, text/event-stream")
		if token != "" {
			r.Header.Set("Authorization", "Bearer "+token)
		}
		resp, err := http.DefaultClient.Do(r)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, string(b), resp.Header
	}
	hour := time.Now().Add(time.Hour)
	other := newIssuer(t, "k1")
	for name, tok := range map[string]string{
		"no token":         "",
		"not a JWT":        "abc",
		"forged signature": other.token(t, testIssuer, testResource, "kgc:read", hour),
		"expired":          iss.token(t, testIssuer, testResource, "kgc:read", time.Now().Add(-time.Hour)),
		"another audience": iss.token(t, testIssuer, "https://elsewhere.example/mcp", "kgc:read", hour),
		"another issuer":   iss.token(t, "https://evil.example", testResource, "kgc:read", hour),
	} {
		code, _, h := call(tok)
		if code != http.StatusUnauthorized || !strings.Contains(h.Get("WWW-Authenticate"), `resource_metadata="http://localhost/.well-known/oauth-protected-resource/mcp"`) {
			t.Errorf("%s: %d %q, want 401 naming the metadata", name, code, h.Get("WWW-Authenticate"))
		}
	}
	if code, _, h := call(iss.token(t, testIssuer, testResource, "profile email", hour)); code != http.StatusForbidden || !strings.Contains(h.Get("WWW-Authenticate"), "insufficient_scope") {
		t.Errorf("a token without a kgc scope: %d %q", code, h.Get("WWW-Authenticate"))
	}
	count := func(scope string) string {
		code, body, _ := call(iss.token(t, testIssuer, testResource, scope, hour))
		if code != 200 {
			t.Fatalf("%s: %d %s", scope, code, body)
		}
		return body
	}
	if b := count("kgc:framework:kgc-sample-math*"); !strings.Contains(b, `"totalMatchingCount":1`) || strings.Contains(b, englishFW) {
		t.Errorf("a framework scope lists: %.300s", b)
	}
	if b := count("openid kgc:read"); !strings.Contains(b, `"totalMatchingCount":2`) {
		t.Errorf("kgc:read lists: %.300s", b)
	}
	deadline := time.Now().Add(5 * time.Second)
	for !strings.Contains(srv.stderr.String(), "caller=sub:teacher-42") && time.Now().Before(deadline) {
		time.Sleep(50 * time.Millisecond)
	}
	if logs := srv.stderr.String(); !strings.Contains(logs, "caller=sub:teacher-42") || strings.Contains(logs, "eyJ") {
		t.Errorf("the audit log (want the subject, never a token):\n%s", logs)
	}
}

// Bad OAuth settings stop kgmcp at start.
func TestOAuthSettingsRefusedAtStart(t *testing.T) {
	dir := shippedImages(t)
	iss := newIssuer(t, "k1")
	empty := filepath.Join(t.TempDir(), "jwks.json")
	os.WriteFile(empty, []byte(`{"keys":[]}`), 0o600)
	for name, c := range map[string]struct {
		args []string
		want string
	}{
		"an http issuer off loopback": {[]string{"--oauth-resource", testResource, "--oauth-issuer", "http://auth.example", "--oauth-jwks-file", iss.jwks}, "is not an https URL"},
		"a JWKS without keys":         {[]string{"--oauth-resource", testResource, "--oauth-issuer", testIssuer, "--oauth-jwks-file", empty}, "no usable public signing key"},
		"no issuer":                   {[]string{"--oauth-resource", testResource, "--oauth-jwks-file", iss.jwks}, "go together"},
		"two key sets":                {[]string{"--oauth-resource", testResource, "--oauth-issuer", testIssuer, "--oauth-jwks-file", iss.jwks, "--oauth-jwks-url", "https://auth.example/jwks"}, "go together"},
	} {
		code, _, stderr := run(t, append(append([]string{"--http", freePort(t)}, c.args...), dir)...)
		if code != 2 || !strings.Contains(stderr, c.want) {
			t.Errorf("%s: %d %q", name, code, stderr)
		}
	}
}

// A JWKS fetched from a URL (a loopback key server here): tokens signed by
// its key are accepted, others not.
func TestOAuthJWKSFromAURL(t *testing.T) {
	dir := shippedImages(t)
	first, second := newIssuer(t, "k1"), newIssuer(t, "k2")
	var current atomic.Pointer[string]
	current.Store(&first.jwks)
	keys := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		b, _ := os.ReadFile(*current.Load())
		w.Header().Set("Content-Type", "application/json")
		w.Write(b)
	}))
	defer keys.Close()
	srv := startHTTP(t, "--oauth-resource", testResource, "--oauth-issuer", testIssuer, "--oauth-jwks-url", keys.URL+"/jwks", dir)
	list := rpc(1, "tools/call", `{"name":"list_frameworks","arguments":{"request":{}}}`)
	status := func(tok string) int {
		code, _, err := srv.post(t, list, "Authorization", "Bearer "+tok)
		if err != nil {
			t.Fatal(err)
		}
		return code
	}
	hour := time.Now().Add(time.Hour)
	if c := status(first.token(t, testIssuer, testResource, "kgc:read", hour)); c != 200 {
		t.Fatalf("a token signed by the fetched key: %d", c)
	}
	if c := status(second.token(t, testIssuer, testResource, "kgc:read", hour)); c != http.StatusUnauthorized {
		t.Errorf("a token signed by a key the fetched set lacks: %d", c)
	}
}

// A JWKS file replaced in place (a mounted Secret swapped, no signal) is read
// again: a token signed by the new key is accepted, one signed by the key
// taken out is refused.
func TestOAuthJWKSFileRotates(t *testing.T) {
	dir := shippedImages(t)
	first, second := newIssuer(t, "k1"), newIssuer(t, "k2")
	file := filepath.Join(t.TempDir(), "jwks.json")
	copyFile := func(from string) {
		b, err := os.ReadFile(from)
		if err != nil {
			t.Fatal(err)
		}
		tmp := file + ".new"
		if err := os.WriteFile(tmp, b, 0o600); err != nil {
			t.Fatal(err)
		}
		if err := os.Rename(tmp, file); err != nil {
			t.Fatal(err)
		}
	}
	copyFile(first.jwks)
	srv := startHTTP(t, "--oauth-resource", testResource, "--oauth-issuer", testIssuer, "--oauth-jwks-file", file, dir)
	list := rpc(1, "tools/call", `{"name":"list_frameworks","arguments":{"request":{}}}`)
	status := func(tok string) int {
		code, _, err := srv.post(t, list, "Authorization", "Bearer "+tok)
		if err != nil {
			t.Fatal(err)
		}
		return code
	}
	hour := time.Now().Add(time.Hour)
	old, next := first.token(t, testIssuer, testResource, "kgc:read", hour), second.token(t, testIssuer, testResource, "kgc:read", hour)
	if a, b := status(old), status(next); a != 200 || b != http.StatusUnauthorized {
		t.Fatalf("before the rotation: the old key's token %d, the new key's %d", a, b)
	}
	copyFile(second.jwks)
	// The file is looked at again at most once a second.
	deadline := time.Now().Add(10 * time.Second)
	for status(next) != 200 {
		if time.Now().After(deadline) {
			t.Fatalf("the new key's token still refused 10 s after the rotation:\n%s", srv.stderr.String())
		}
		time.Sleep(200 * time.Millisecond)
	}
	if c := status(old); c != http.StatusUnauthorized {
		t.Errorf("the old key's token after the rotation: %d, want 401", c)
	}
	if !strings.Contains(srv.stderr.String(), "jwks reloaded") {
		t.Error("the reload is not logged")
	}
}

// The TypeScript SDK client through its own OAuth discovery: kgmcp's 401
// names its metadata, which names a tiny local authorization server (this
// test's), whose metadata names its token endpoint; the client gets a token
// with the client-credentials grant and calls the tools with it.
func TestTypeScriptSDKClientThroughOAuthDiscovery(t *testing.T) {
	clients := mcpClients(t)
	dir := shippedImages(t)
	iss := newIssuer(t, "k1")
	addr := freePort(t)
	resource := "http://" + addr + "/mcp"
	var as *httptest.Server
	var issued atomic.Int32
	as = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		switch r.URL.Path {
		case "/.well-known/oauth-authorization-server", "/.well-known/openid-configuration":
			json.NewEncoder(w).Encode(map[string]any{"issuer": as.URL, "authorization_endpoint": as.URL + "/authorize", "token_endpoint": as.URL + "/token", "response_types_supported": []string{"code"},
				"grant_types_supported": []string{"client_credentials"}, "token_endpoint_auth_methods_supported": []string{"client_secret_basic"}})
		case "/token":
			id, secret, ok := r.BasicAuth()
			r.ParseForm()
			if !ok || id != "kgc-test-client" || secret != "kgc-test-secret" || r.Form.Get("grant_type") != "client_credentials" {
				w.WriteHeader(http.StatusUnauthorized)
				io.WriteString(w, `{"error":"invalid_client"}`)
				return
			}
			issued.Add(1)
			tok := iss.token(t, as.URL, resource, "kgc:framework:"+mathsFW, time.Now().Add(time.Hour))
			json.NewEncoder(w).Encode(map[string]any{"access_token": tok, "token_type": "Bearer", "expires_in": 3600, "scope": "kgc:framework:" + mathsFW})
		default:
			http.NotFound(w, r)
		}
	}))
	defer as.Close()
	srv := startHTTPAt(t, addr, "--oauth-resource", resource, "--oauth-issuer", as.URL, "--oauth-jwks-file", iss.jwks, dir)
	steps := []map[string]any{{"method": "tools/call", "name": "list_frameworks", "arguments": map[string]any{"request": map[string]any{}}}}
	out := probe(t, clients, map[string]any{"transport": "http", "url": srv.base + "/mcp",
		"oauth": map[string]any{"clientId": "kgc-test-client", "clientSecret": "kgc-test-secret", "scope": "kgc:framework:" + mathsFW}}, steps)
	if !out.Steps[0].OK || !strings.Contains(string(out.Steps[0].Result), `"totalMatchingCount":1`) || issued.Load() == 0 {
		t.Errorf("through OAuth discovery (%d tokens issued): %s %+v", issued.Load(), out.Steps[0].Result, out.Steps[0].Error)
	}
}
