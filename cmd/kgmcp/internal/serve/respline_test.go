package serve

import (
	"encoding/json"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
)

// TestResponseLineIsTheSDKsEncoding: a line responseLine writes is byte for
// byte what the SDK's encoder writes for the same response; what it cannot
// write exactly it leaves to the SDK.
func TestResponseLineIsTheSDKsEncoding(t *testing.T) {
	result := json.RawMessage(`{"content":[{"type":"text","text":"{\"d\":\"a \\u003c b \\u0026 c\"}"}],"structuredContent":{"d":"a <b> & \u2028 é"}}`)
	for _, id := range []any{float64(1), float64(-7), float64(1 << 53), "abc", "", "é \" \\ \u2028 x"} {
		mid, err := jsonrpc.MakeID(id)
		if err != nil {
			t.Fatal(err)
		}
		resp := &jsonrpc.Response{ID: mid, Result: result}
		want, err := jsonrpc.EncodeMessage(resp)
		if err != nil {
			t.Fatal(err)
		}
		got, ok := responseLine(resp)
		if !ok {
			t.Errorf("id %#v: not written", id)
			continue
		}
		if string(got) != string(want)+"\n" {
			t.Errorf("id %#v:\n got %s\nwant %s", id, got, want)
		}
	}
	mid, _ := jsonrpc.MakeID("<id>")
	if _, ok := responseLine(&jsonrpc.Response{ID: mid, Result: result}); ok {
		t.Error("an ID the SDK escapes differently was written")
	}
	mid, _ = jsonrpc.MakeID(float64(2))
	if _, ok := responseLine(&jsonrpc.Response{ID: mid, Error: &jsonrpc.Error{Code: -32602, Message: "x"}}); ok {
		t.Error("an error response was written")
	}
}
