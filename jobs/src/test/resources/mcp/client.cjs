// An MCP client that is not ours: the official TypeScript SDK's, from the npm registry (NODE_PATH points at it).
// Usage: node client.cjs CALLS.json COMMAND [ARG...]
// Starts COMMAND as a stdio MCP server, lists its tools, makes each call of CALLS.json ([{name, arguments}]) in
// order, and prints one JSON object: {initializeMs, tools:[{name, inputSchema, annotations}], results:[{name,
// isError, text}]}. A JSON-RPC error on a call is recorded as {name, rpcError}.
const { Client } = require('@modelcontextprotocol/sdk/client/index.js');
const { StdioClientTransport } = require('@modelcontextprotocol/sdk/client/stdio.js');
const fs = require('fs');

async function main() {
  const [callsFile, command, ...args] = process.argv.slice(2);
  const calls = JSON.parse(fs.readFileSync(callsFile, 'utf8'));
  const transport = new StdioClientTransport({ command, args, env: process.env, stderr: 'inherit' });
  const client = new Client({ name: 'code-memory-test', version: '1.0.0' });
  const started = process.hrtime.bigint();
  await client.connect(transport);
  const initializeMs = Number(process.hrtime.bigint() - started) / 1e6;
  const listed = await client.listTools();
  const results = [];
  for (const call of calls) {
    const t0 = process.hrtime.bigint();
    try {
      const r = await client.callTool({ name: call.name, arguments: call.arguments }, undefined, { timeout: 120000 });
      results.push({ name: call.name, isError: r.isError === true,
        text: r.content.filter(c => c.type === 'text').map(c => c.text).join('\n'),
        ms: Number(process.hrtime.bigint() - t0) / 1e6 });
    } catch (e) {
      results.push({ name: call.name, rpcError: String(e && e.message || e) });
    }
  }
  await client.close();
  process.stdout.write(JSON.stringify({ initializeMs, serverName: client.getServerVersion().name,
    tools: listed.tools.map(t => ({ name: t.name, description: t.description, inputSchema: t.inputSchema,
      annotations: t.annotations })), results }) + '\n');
}

main().catch(e => { console.error(e); process.exit(1); });
