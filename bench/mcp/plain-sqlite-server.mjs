// The peer for bench/mcp/mcp-calls.mjs: a plain MCP server over stdio with the official SDK and
// better-sqlite3 — one `execute_sql` tool that runs the statement on a read-only handle and
// returns the rows as JSON text. No gate, no audit, no parser: the floor an MCP database server
// costs per call.   node bench/mcp/plain-sqlite-server.mjs <file.sqlite>
import { createRequire } from 'node:module';

// The SDK is the CLI's dependency (apps/cli), not the root's.
const require = createRequire(new URL('../../apps/cli/package.json', import.meta.url));
const { Server } = require('@modelcontextprotocol/sdk/server/index.js');
const { StdioServerTransport } = require('@modelcontextprotocol/sdk/server/stdio.js');
const { CallToolRequestSchema, ListToolsRequestSchema } = require('@modelcontextprotocol/sdk/types.js');
const Database = require('better-sqlite3');

const database = new Database(process.argv[2], { readonly: true, fileMustExist: true });
const server = new Server({ name: 'plain-sqlite', version: '0.0.0' }, { capabilities: { tools: {} } });
server.setRequestHandler(ListToolsRequestSchema, async () => ({
  tools: [
    {
      name: 'execute_sql',
      description: 'Run one SQL statement on the database',
      inputSchema: { type: 'object', properties: { sql: { type: 'string' } }, required: ['sql'] },
    },
  ],
}));
server.setRequestHandler(CallToolRequestSchema, async (request) => {
  try {
    const rows = database.prepare(String(request.params.arguments?.sql)).all();
    return { content: [{ type: 'text', text: JSON.stringify(rows) }] };
  } catch (error) {
    return { content: [{ type: 'text', text: String(error) }], isError: true };
  }
});
await server.connect(new StdioServerTransport());
