import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { RequestHandlerExtra } from '@modelcontextprotocol/sdk/shared/protocol.js';
import {
  ErrorCode,
  ListResourcesRequestSchema,
  ListResourceTemplatesRequestSchema,
  McpError,
  ReadResourceRequestSchema,
  type ServerNotification,
  type ServerRequest,
} from '@modelcontextprotocol/sdk/types.js';
import type { GatedCallOutcome } from '@riskgate/core';

/** What a request handler gets beside the request: its signal, and requests sent on its own stream. */
export type RequestExtra = RequestHandlerExtra<ServerRequest, ServerNotification>;

/** The whole schema; one table's is SCHEMA_URI/<table, URI-encoded>. */
export const SCHEMA_URI = 'riskgate://schema';

export interface SchemaResourceSource {
  /** The table and view names (catalog only), or none when the gate would refuse describe_schema. */
  readonly tables: (extra: RequestExtra) => Promise<readonly string[]>;
  /** describe_schema through the gate: the same rules, secret withholding and audit as the tool. */
  readonly describe: (table: string | undefined, extra: RequestExtra) => Promise<GatedCallOutcome>;
}

/**
 * The database's schema as MCP resources: tables, columns, types, keys and indexes as
 * describe_schema gives them — never a row. Every read is a describe_schema call through the
 * gate, so a deny rule, strict mode's confirmation and the output guard apply to it as to the tool.
 */
export function serveSchemaResources(server: Server, source: SchemaResourceSource): void {
  server.setRequestHandler(ListResourcesRequestSchema, async (_request, extra) => ({
    resources: [
      {
        uri: SCHEMA_URI,
        name: 'schema',
        title: 'The database schema',
        description: 'Every table and view: columns, types, keys, indexes. No row data.',
        mimeType: 'text/plain',
      },
      ...(await source.tables(extra)).map((table) => ({
        uri: `${SCHEMA_URI}/${encodeURIComponent(table)}`,
        name: table,
        title: `The schema of ${table}`,
        mimeType: 'text/plain',
      })),
    ],
  }));
  server.setRequestHandler(ListResourceTemplatesRequestSchema, async () => ({
    resourceTemplates: [
      {
        uriTemplate: `${SCHEMA_URI}/{table}`,
        name: 'table-schema',
        title: 'The schema of one table or view',
        description: 'Its columns, types, keys and indexes. No row data.',
        mimeType: 'text/plain',
      },
    ],
  }));
  server.setRequestHandler(ReadResourceRequestSchema, async (request, extra) => {
    const { uri } = request.params;
    const table = tableOf(uri);
    if (table === null) throw new McpError(ErrorCode.InvalidParams, `no resource ${JSON.stringify(uri)}`);
    const outcome = await source.describe(table, extra);
    if (outcome.state !== 'succeeded') throw new McpError(ErrorCode.InvalidRequest, outcome.forModel);
    return { contents: [{ uri, mimeType: 'text/plain', text: outcome.forModel }] };
  });
}

/** The table a schema URI names: undefined for the whole schema, null when it is no schema URI. */
export function tableOf(uri: string): string | undefined | null {
  if (uri === SCHEMA_URI) return undefined;
  if (!uri.startsWith(`${SCHEMA_URI}/`)) return null;
  try {
    const table = decodeURIComponent(uri.slice(SCHEMA_URI.length + 1));
    return table.trim() === '' ? null : table;
  } catch {
    return null;
  }
}
