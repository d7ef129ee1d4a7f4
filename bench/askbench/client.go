package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"time"
)

// protocolVersion is the MCP revision askbench negotiates, as current hosts do
// (it is also the first that defines resource_link blocks).
const protocolVersion = "2025-06-18"

// callTimeout bounds every request: a server that does not answer in time is
// a failure, not a hang.
const callTimeout = 60 * time.Second

// client is a minimal MCP host over a server's stdio: one JSON-RPC line per
// request, one request at a time, the answer matched by its id.
type client struct {
	cmd    *exec.Cmd
	in     io.WriteCloser
	lines  chan []byte
	stderr *bytes.Buffer
	id     int
}

// rpcError is a JSON-RPC error answer.
type rpcError struct {
	Code    int    `json:"code"`
	Message string `json:"message"`
}

func (e *rpcError) Error() string { return fmt.Sprintf("JSON-RPC error %d: %s", e.Code, e.Message) }

// startClient starts bin with args and initializes an MCP session over its
// stdio as a host would: initialize (protocol 2025-06-18), then the
// initialized notification.
func startClient(bin string, args ...string) (*client, error) {
	cmd := exec.Command(bin, args...)
	// The server's defaults, as a fresh host configuration has them: no
	// KGMCP_/KGFEGMCP_ settings from this environment.
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "KGMCP_") && !strings.HasPrefix(kv, "KGFEGMCP_") {
			cmd.Env = append(cmd.Env, kv)
		}
	}
	in, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	c := &client{cmd: cmd, in: in, lines: make(chan []byte, 16), stderr: &bytes.Buffer{}}
	cmd.Stderr = c.stderr
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	go func() {
		r := bufio.NewReaderSize(out, 1<<20)
		for {
			line, err := r.ReadBytes('\n')
			if len(line) > 0 {
				c.lines <- line
			}
			if err != nil {
				close(c.lines)
				return
			}
		}
	}()
	var init struct {
		ProtocolVersion string `json:"protocolVersion"`
	}
	res, err := c.request("initialize", map[string]any{
		"protocolVersion": protocolVersion,
		"capabilities":    map[string]any{},
		"clientInfo":      map[string]any{"name": "askbench", "version": "1"},
	})
	if err == nil {
		err = json.Unmarshal(res, &init)
	}
	if err == nil && init.ProtocolVersion != protocolVersion {
		err = fmt.Errorf("server negotiated protocol %q, not %s", init.ProtocolVersion, protocolVersion)
	}
	if err == nil {
		err = c.write(map[string]any{"jsonrpc": "2.0", "method": "notifications/initialized"})
	}
	if err != nil {
		c.close()
		return nil, fmt.Errorf("initialize: %w", err)
	}
	return c, nil
}

func (c *client) write(msg any) error {
	b, err := json.Marshal(msg)
	if err != nil {
		return err
	}
	_, err = c.in.Write(append(b, '\n'))
	return err
}

// request sends one request and returns its result, skipping whatever else
// the server writes in between (notifications).
func (c *client) request(method string, params any) (json.RawMessage, error) {
	c.id++
	if err := c.write(map[string]any{"jsonrpc": "2.0", "id": c.id, "method": method, "params": params}); err != nil {
		return nil, err
	}
	want := strconv.Itoa(c.id)
	timeout := time.After(callTimeout)
	for {
		select {
		case line, ok := <-c.lines:
			if !ok {
				return nil, fmt.Errorf("%s: the server closed its output (stderr: %.500s)", method, c.stderr.String())
			}
			var msg struct {
				ID     json.RawMessage `json:"id"`
				Result json.RawMessage `json:"result"`
				Error  *rpcError       `json:"error"`
			}
			if err := json.Unmarshal(line, &msg); err != nil {
				return nil, fmt.Errorf("%s: undecodable line from the server: %v", method, err)
			}
			if string(msg.ID) != want {
				continue
			}
			if msg.Error != nil {
				return nil, msg.Error
			}
			return msg.Result, nil
		case <-timeout:
			return nil, fmt.Errorf("%s: no answer within %s", method, callTimeout)
		}
	}
}

// toolResult is a tools/call result as a host receives it.
type toolResult struct {
	Content []struct {
		Type string `json:"type"`
		Text string `json:"text"`
	} `json:"content"`
	StructuredContent json.RawMessage `json:"structuredContent"`
	IsError           bool            `json:"isError"`
}

// callTool calls one tool with its arguments exactly as given.
func (c *client) callTool(name string, args json.RawMessage) (*toolResult, error) {
	raw, err := c.request("tools/call", map[string]any{"name": name, "arguments": args})
	if err != nil {
		return nil, err
	}
	var res toolResult
	if err := json.Unmarshal(raw, &res); err != nil {
		return nil, fmt.Errorf("tools/call %s: %v", name, err)
	}
	return &res, nil
}

// modelTool is what a host shows the model of one tool: its name, title,
// description and input schema (not its output schema or annotations).
type modelTool struct {
	Name        string          `json:"name"`
	Title       string          `json:"title,omitempty"`
	Description string          `json:"description,omitempty"`
	InputSchema json.RawMessage `json:"inputSchema"`
}

// listTools returns every tool of tools/list (all pages) as the model sees it.
func (c *client) listTools() ([]modelTool, error) {
	var all []modelTool
	params := map[string]any{}
	for {
		raw, err := c.request("tools/list", params)
		if err != nil {
			return nil, err
		}
		var page struct {
			Tools      []modelTool `json:"tools"`
			NextCursor string      `json:"nextCursor"`
		}
		if err := json.Unmarshal(raw, &page); err != nil {
			return nil, fmt.Errorf("tools/list: %v", err)
		}
		all = append(all, page.Tools...)
		if page.NextCursor == "" {
			return all, nil
		}
		params = map[string]any{"cursor": page.NextCursor}
	}
}

// close ends the session (stdin closed, as a host does) and waits for the
// server to exit, killing it if it does not within five seconds.
func (c *client) close() error {
	c.in.Close()
	done := make(chan error, 1)
	go func() { done <- c.cmd.Wait() }()
	select {
	case err := <-done:
		return err
	case <-time.After(5 * time.Second):
		c.cmd.Process.Kill()
		<-done
		return errors.New("the server did not exit within 5s of its input closing")
	}
}
