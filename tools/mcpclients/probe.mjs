// probe.mjs drives an MCP server with the official TypeScript SDK client and
// prints what it saw as one JSON document, for the Go tests to assert on.
//
//   node probe.mjs SCRIPT.json
//
// SCRIPT: {"transport": "stdio", "command": "...", "args": [...]} or
//         {"transport": "http", "url": "http://127.0.0.1:PORT/mcp"} (with
//         "bearer": a key or access token sent as Authorization: Bearer, or
//         "oauth": {"clientId", "clientSecret", "scope"}: the SDK's OAuth
//         client-credentials flow, discovering the authorization server
//         from the server's 401),
//         optionally "sdk": "2025-03-26" (the SDK 1.12.1 client),
//         plus "steps": [{"method": "tools/list"} | {"method": "tools/call",
//         "name", "arguments", optionally "progress": true} | {"method": "resources/read", "uri"} |
//         {"method": "resources/templates/list"} | {"method": "resources/list"} |
//         {"method": "prompts/list"} | {"method": "prompts/get", "name",
//         "arguments"} | {"method": "completion/complete", "ref", "argument",
//         "context"} | {"method": "ping"}].
// Output: {"serverVersion", "protocolVersion", "instructions", "steps": [{"ok":
// true, "result"} | {"ok": false, "error": {"code", "message"}}]}. The SDK client
// itself validates each structuredContent against the tool's outputSchema.
import { readFileSync } from 'node:fs';

const script = JSON.parse(readFileSync(process.argv[2], 'utf8'));
// "sdk": "2025-03-26" drives the server with SDK 1.12.1, a client of that
// protocol version (it has no resource_link content); default: the current SDK.
const sdk = script.sdk === '2025-03-26' ? '@modelcontextprotocol/sdk-2025-03-26' : '@modelcontextprotocol/sdk';
const { Client } = await import(`${sdk}/client/index.js`);
const { StdioClientTransport } = await import(`${sdk}/client/stdio.js`);
const { StreamableHTTPClientTransport } = await import(`${sdk}/client/streamableHttp.js`);
let httpOptions;
if (script.bearer) {
  httpOptions = { requestInit: { headers: { Authorization: `Bearer ${script.bearer}` } } };
} else if (script.oauth) {
  const { ClientCredentialsProvider } = await import(`${sdk}/client/auth-extensions.js`);
  httpOptions = { authProvider: new ClientCredentialsProvider(script.oauth) };
}
const transport = script.transport === 'http'
  ? new StreamableHTTPClientTransport(new URL(script.url), httpOptions)
  : new StdioClientTransport({ command: script.command, args: script.args || [], stderr: 'ignore' });
const client = new Client({ name: 'kgc-probe', version: '1' });

async function step(s) {
  switch (s.method) {
    case 'tools/list': {
      // Listing caches the output schemas the client validates calls against.
      return await client.listTools();
    }
    case 'tools/call': {
      // "progress": true asks as hosts do that show progress: the SDK then
      // sends a _meta.progressToken with the call.
      const options = s.progress ? { onprogress: () => {} } : undefined;
      return await client.callTool({ name: s.name, arguments: s.arguments || {} }, undefined, options);
    }
    case 'resources/read': return await client.readResource({ uri: s.uri });
    case 'resources/list': return await client.listResources();
    case 'resources/templates/list': return await client.listResourceTemplates();
    case 'prompts/list': return await client.listPrompts();
    case 'prompts/get': return await client.getPrompt({ name: s.name, arguments: s.arguments || {} });
    case 'completion/complete': return await client.complete({ ref: s.ref, argument: s.argument, context: s.context });
    case 'ping': return await client.ping();
    default: throw new Error(`unknown step ${s.method}`);
  }
}

const out = { steps: [] };
try {
  await client.connect(transport);
  out.serverVersion = client.getServerVersion();
  out.instructions = client.getInstructions() ?? null;
  out.protocolVersion = transport.protocolVersion ?? null;
  for (const s of script.steps) {
    try {
      out.steps.push({ ok: true, result: await step(s) });
    } catch (e) {
      out.steps.push({ ok: false, error: { code: e.code ?? null, message: String(e.message) } });
    }
  }
} catch (e) {
  out.fatal = String(e && e.stack || e);
} finally {
  await client.close().catch(() => {});
}
// Exit only once stdout has drained: a pipe write of a large document is async.
process.stdout.write(JSON.stringify(out) + '\n', () => process.exit(out.fatal ? 1 : 0));
