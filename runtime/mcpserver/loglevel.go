package mcpserver

import (
	"bytes"
	"encoding/json"
	"slices"
	"strconv"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// loggingLevels are the levels logging/setLevel accepts: MCP's names for the
// RFC 5424 severities, least severe first. The SDK accepts any string (and a
// missing level), so the guard refuses the others.
var loggingLevels = []string{"debug", "info", "notice", "warning", "error", "critical", "alert", "emergency"}

// invalidLevel is the -32602 error refusing a logging/setLevel whose level is
// not one of loggingLevels; got says what was sent instead (JSON, or "no
// level").
func invalidLevel(got string) *jsonrpc.Error {
	return &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: "invalid params: logging/setLevel needs a \"level\", one of " +
		strings.Join(loggingLevels, ", ") + "; got " + got}
}

// CheckSetLevelParams checks the raw params of a logging/setLevel call, for a
// transport that answers before the SDK decodes them (the SDK refuses a level
// that is not a string with a message that does not name the levels). It
// returns nil for params it leaves to the SDK (absent, null, or not an
// object) and for an acceptable level.
func CheckSetLevelParams(params json.RawMessage) *jsonrpc.Error {
	var p map[string]json.RawMessage
	if err := json.Unmarshal(params, &p); err != nil || p == nil {
		return nil
	}
	raw, ok := p["level"]
	if !ok {
		return invalidLevel("no level")
	}
	var level string
	if err := json.Unmarshal(raw, &level); err != nil || bytes.Equal(raw, []byte("null")) {
		return invalidLevel(clipJSON(raw, 40))
	}
	return checkLevel(level)
}

// checkLevel refuses a level that is not one of loggingLevels.
func checkLevel(level string) *jsonrpc.Error {
	if slices.Contains(loggingLevels, level) {
		return nil
	}
	if level == "" {
		return invalidLevel("no level")
	}
	return invalidLevel(strconv.Quote(clipLevel(level, 40)))
}

// checkSetLevel refuses a logging/setLevel request whose level is not one of
// loggingLevels (the guard runs it before the SDK's handler stores the level).
func checkSetLevel(req mcp.Request) error {
	//lint:ignore SA1019 logging is deprecated from protocol 2026-07-28 but served to the clients of earlier versions
	p, ok := req.GetParams().(*mcp.SetLoggingLevelParams)
	if !ok || p == nil {
		return invalidLevel("no level")
	}
	if err := checkLevel(string(p.Level)); err != nil {
		return err
	}
	return nil
}

// clipLevel shortens what a client sent as a level to n runes, for a message.
func clipLevel(s string, n int) string {
	for i := range s {
		if n == 0 {
			return s[:i] + "…"
		}
		n--
	}
	return s
}

// clipJSON is raw compacted and shortened to n runes, for a message.
func clipJSON(raw json.RawMessage, n int) string {
	var b bytes.Buffer
	if json.Compact(&b, raw) != nil {
		return clipLevel(string(raw), n)
	}
	return clipLevel(b.String(), n)
}
