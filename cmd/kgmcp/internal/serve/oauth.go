package serve

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/url"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	jose "github.com/go-jose/go-jose/v4"
	"github.com/go-jose/go-jose/v4/jwt"
	"github.com/modelcontextprotocol/go-sdk/auth"
	"github.com/modelcontextprotocol/go-sdk/oauthex"

	"github.com/kgc-project/kgc/runtime/mcpserver"
)

// kgmcp as an OAuth 2.1 protected resource (the MCP authorization spec):
// with --oauth-resource, --oauth-issuer and --oauth-jwks-file, /mcp takes
// JWT access tokens verified offline: the signature against the JWKS (RS256,
// ES256, EdDSA), the issuer among the configured ones, the audience the
// resource URI (RFC 8707), expiry and not-before with a minute's skew. The
// token's scopes grant frameworks: kgc:read grants all, kgc:framework:P
// grants the frameworks P names (an ID or a pattern); a token with neither
// is 403 insufficient_scope. GET /.well-known/oauth-protected-resource (and
// the same path suffixed with the resource's path) serves the RFC 9728
// metadata, and a request without a valid token gets 401 with
// WWW-Authenticate naming it. Tokens are never logged; a token's caller is
// "sub:" and its subject.

// Scopes a token grants frameworks with.
const (
	scopeRead          = "kgc:read"
	scopeFrameworkPref = "kgc:framework:"
)

// clockSkew is the tolerance on a token's times.
const clockSkew = time.Minute

// oauthConfig is the resource server's settings.
type oauthConfig struct {
	resource string   // this server's resource URI, the audience tokens must name
	issuers  []string // the authorization servers whose tokens are accepted
	jwksFile string   // the key set, as a file
	jwksURL  string   // or fetched (https, or http on loopback)
}

// checkOAuth checks the settings at start: an https resource and issuers
// (http only on loopback), and a JWKS file with a usable key.
func checkOAuth(c oauthConfig) error {
	if c.resource == "" || len(c.issuers) == 0 || (c.jwksFile == "") == (c.jwksURL == "") {
		return errors.New("--oauth-resource, --oauth-issuer and one of --oauth-jwks-file or --oauth-jwks-url go together")
	}
	urls := append([]string{c.resource}, c.issuers...)
	if c.jwksURL != "" {
		urls = append(urls, c.jwksURL)
	}
	for _, u := range urls {
		p, err := url.Parse(u)
		if err != nil || p.Host == "" || (p.Scheme != "https" && !(p.Scheme == "http" && loopbackHost(p.Hostname()))) || p.Fragment != "" {
			return fmt.Errorf("%q is not an https URL (http is accepted on loopback only)", u)
		}
	}
	return nil
}

func loopbackHost(h string) bool {
	if h == "localhost" {
		return true
	}
	ip := net.ParseIP(h)
	return ip != nil && ip.IsLoopback()
}

// jwks is the key set: a file read again when it changes, or a URL fetched
// again every jwksRefresh (and, at most once a minute, for a token signed
// by a key it does not hold). What no longer reads keeps the keys read last.
type jwks struct {
	path, url string
	log       *slog.Logger
	mu        sync.Mutex
	set       *jose.JSONWebKeySet
	stat      os.FileInfo
	last      time.Time // last checked
	fetched   time.Time // last fetched (URL)
}

// jwksRefresh is how often a fetched key set is fetched again.
const jwksRefresh = 10 * time.Minute

// loadJWKS reads the key set at start.
func loadJWKS(c oauthConfig, log *slog.Logger) (*jwks, error) {
	j := &jwks{path: c.jwksFile, url: c.jwksURL, log: log, last: time.Now(), fetched: time.Now()}
	var err error
	if j.url != "" {
		j.set, err = fetchJWKS(j.url)
	} else {
		j.set, j.stat, err = readJWKS(j.path)
	}
	return j, err
}

// parseJWKS decodes a key set: at least one usable public signing key.
func parseJWKS(b []byte) (*jose.JSONWebKeySet, error) {
	var set jose.JSONWebKeySet
	if err := json.NewDecoder(bytes.NewReader(b)).Decode(&set); err != nil {
		return nil, fmt.Errorf("not a JWKS: %w", err)
	}
	usable := 0
	for _, k := range set.Keys {
		if k.Valid() && k.IsPublic() && k.Use != "enc" {
			usable++
		}
	}
	if usable == 0 {
		return nil, errors.New("the JWKS holds no usable public signing key")
	}
	return &set, nil
}

// readJWKS reads a key set file.
func readJWKS(p string) (*jose.JSONWebKeySet, os.FileInfo, error) {
	real, err := filepath.EvalSymlinks(p)
	if err != nil {
		return nil, nil, err
	}
	fi, err := os.Stat(real)
	if err != nil {
		return nil, nil, err
	}
	if !fi.Mode().IsRegular() || fi.Size() > maxKeyFileBytes {
		return nil, nil, fmt.Errorf("%s is not a regular file of at most %d bytes", real, maxKeyFileBytes)
	}
	b, err := os.ReadFile(real)
	if err != nil {
		return nil, nil, err
	}
	set, err := parseJWKS(b)
	return set, fi, err
}

// jwksClient fetches key sets: bounded in time, never following a redirect
// elsewhere than https.
var jwksClient = &http.Client{Timeout: 10 * time.Second, CheckRedirect: func(r *http.Request, via []*http.Request) error {
	if len(via) > 3 || (r.URL.Scheme != "https" && !loopbackHost(r.URL.Hostname())) {
		return errors.New("redirect refused")
	}
	return nil
}}

// fetchJWKS fetches a key set (at most 1 MiB).
func fetchJWKS(u string) (*jose.JSONWebKeySet, error) {
	resp, err := jwksClient.Get(u)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("%s answered %s", u, resp.Status)
	}
	b, err := io.ReadAll(io.LimitReader(resp.Body, maxKeyFileBytes+1))
	if err != nil {
		return nil, err
	}
	if len(b) > maxKeyFileBytes {
		return nil, fmt.Errorf("%s sent more than %d bytes", u, maxKeyFileBytes)
	}
	return parseJWKS(b)
}

// keys returns the key set, read or fetched again when due (missing: a
// token names a key the set lacks).
func (j *jwks) keys(missing bool) *jose.JSONWebKeySet {
	j.mu.Lock()
	defer j.mu.Unlock()
	if j.url != "" {
		if time.Since(j.fetched) < jwksRefresh && !(missing && time.Since(j.fetched) > time.Minute) {
			return j.set
		}
		j.fetched = time.Now()
		set, err := fetchJWKS(j.url)
		if err != nil {
			j.log.Error("jwks fetch failed; keeping the keys fetched last", "url", j.url, "error", err.Error())
			return j.set
		}
		j.set = set
		j.log.Info("jwks fetched", "url", j.url, "keys", len(set.Keys))
		return set
	}
	if time.Since(j.last) < time.Second {
		return j.set
	}
	j.last = time.Now()
	fi, err := os.Stat(j.path)
	if err == nil && j.stat != nil && os.SameFile(fi, j.stat) && fi.ModTime().Equal(j.stat.ModTime()) && fi.Size() == j.stat.Size() {
		return j.set
	}
	set, st, err := readJWKS(j.path)
	if err != nil {
		j.log.Error("jwks file unreadable; keeping the keys read last", "path", j.path, "error", err.Error())
		return j.set
	}
	j.set, j.stat = set, st
	j.log.Info("jwks reloaded", "path", j.path, "keys", len(set.Keys))
	return set
}

// tokenClaims are the claims kgmcp reads.
type tokenClaims struct {
	jwt.Claims
	Scope string `json:"scope"`
}

var tokenAlgorithms = []jose.SignatureAlgorithm{jose.RS256, jose.RS384, jose.RS512, jose.PS256, jose.ES256, jose.ES384, jose.EdDSA}

// verifier checks a JWT access token (auth.TokenVerifier) and turns its
// scopes into a grant, kept in TokenInfo.Extra.
func (c oauthConfig) verifier(set *jwks) auth.TokenVerifier {
	return func(_ context.Context, token string, _ *http.Request) (*auth.TokenInfo, error) {
		tok, err := jwt.ParseSigned(token, tokenAlgorithms)
		if err != nil || len(tok.Headers) != 1 {
			return nil, fmt.Errorf("%w: not a signed JWT", auth.ErrInvalidToken)
		}
		keys := set.keys(false).Key(tok.Headers[0].KeyID)
		if len(keys) == 0 {
			keys = set.keys(true).Key(tok.Headers[0].KeyID)
		}
		if len(keys) == 0 {
			return nil, fmt.Errorf("%w: signed by a key the JWKS does not hold", auth.ErrInvalidToken)
		}
		var claims tokenClaims
		if err := tok.Claims(keys[0].Key, &claims); err != nil {
			return nil, fmt.Errorf("%w: the signature does not verify", auth.ErrInvalidToken)
		}
		if !slices.Contains(c.issuers, claims.Issuer) {
			return nil, fmt.Errorf("%w: issued by %q, not an accepted authorization server", auth.ErrInvalidToken, claims.Issuer)
		}
		if claims.Expiry == nil {
			return nil, fmt.Errorf("%w: no expiry", auth.ErrInvalidToken)
		}
		if err := claims.ValidateWithLeeway(jwt.Expected{Issuer: claims.Issuer, AnyAudience: jwt.Audience{c.resource}, Time: time.Now()}, clockSkew); err != nil {
			return nil, fmt.Errorf("%w: %v", auth.ErrInvalidToken, err)
		}
		info := &auth.TokenInfo{Scopes: strings.Fields(claims.Scope), Expiration: claims.Expiry.Time(), UserID: claims.Subject}
		g, ok := grantOfScopes(info.Scopes)
		if !ok {
			return info, nil // no kgc scope: refused as insufficient_scope
		}
		g.Caller = "sub:" + claims.Subject
		info.Extra = map[string]any{"grant": g}
		return info, nil
	}
}

// grantOfScopes is the grant of a token's scopes; false when none is a kgc
// scope.
func grantOfScopes(scopes []string) (*mcpserver.Grant, bool) {
	g := &mcpserver.Grant{}
	granted := false
	for _, s := range scopes {
		switch {
		case s == scopeRead:
			return &mcpserver.Grant{}, true
		case strings.HasPrefix(s, scopeFrameworkPref):
			p := strings.TrimPrefix(s, scopeFrameworkPref)
			if _, err := path.Match(p, ""); err == nil && p != "" {
				g.Frameworks = append(g.Frameworks, p)
				granted = true
			}
		}
	}
	return g, granted
}

// metadataURL is where the resource's RFC 9728 metadata is served: the
// well-known path inserted before the resource's own path.
func (c oauthConfig) metadataURL() string {
	u, _ := url.Parse(c.resource)
	p := strings.TrimSuffix(u.Path, "/")
	return u.Scheme + "://" + u.Host + "/.well-known/oauth-protected-resource" + p
}

// protect requires a valid token (or, when keys are given too, a listed
// API key) on next, and registers the metadata on mux.
func (c oauthConfig) protect(mux *http.ServeMux, set *jwks, keys *keyFile, log *slog.Logger, next http.Handler) http.Handler {
	meta := auth.ProtectedResourceMetadataHandler(&oauthex.ProtectedResourceMetadata{
		Resource: c.resource, AuthorizationServers: c.issuers, BearerMethodsSupported: []string{"header"},
		ScopesSupported: []string{scopeRead, scopeFrameworkPref + "{framework}"}, ResourceName: "kgmcp",
	})
	mux.Handle("GET /.well-known/oauth-protected-resource", meta)
	if u, _ := url.Parse(c.resource); strings.Trim(u.Path, "/") != "" {
		mux.Handle("GET /.well-known/oauth-protected-resource/"+strings.Trim(u.Path, "/"), meta)
	}
	withGrant := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		info := auth.TokenInfoFromContext(r.Context())
		g, _ := info.Extra["grant"].(*mcpserver.Grant)
		if g == nil {
			w.Header().Set("WWW-Authenticate", fmt.Sprintf(`Bearer error="insufficient_scope", scope=%q, resource_metadata=%q`, scopeRead, c.metadataURL()))
			http.Error(w, "insufficient_scope: the token grants no kgc:read or kgc:framework:… scope", http.StatusForbidden)
			return
		}
		next.ServeHTTP(w, r.WithContext(mcpserver.WithGrant(r.Context(), g)))
	})
	bearer := auth.RequireBearerToken(c.verifier(set), &auth.RequireBearerTokenOptions{ResourceMetadataURL: c.metadataURL(), ClockSkew: clockSkew})(withGrant)
	if keys == nil {
		return bearer
	}
	byKey := requireKey(keys, log, next)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		// A JWT has three dot-separated parts; a key from the file does not
		// need to: anything else is tried as a key.
		if v := presentedKey(r); v != "" && strings.Count(v, ".") != 2 {
			byKey.ServeHTTP(w, r)
			return
		}
		bearer.ServeHTTP(w, r)
	})
}
