import { z } from 'zod/v4';
import { RISK_LEVEL_PROPERTY, riskLevelJsonSchema } from './levels.js';
import type { AnyTool } from './tool.js';

export interface FunctionDefinition {
  readonly name: string;
  readonly description: string;
  readonly parameters: Record<string, unknown>;
}

/**
 * What the model sees for a tool: its JSON schema with the optional `risk_level` enum added
 * (spec 003 "Tool definitions include risk_level parameter").
 */
export function toolFunctionDefinition(tool: AnyTool): FunctionDefinition {
  // zod is the host's (a peer, issue 22): zod 4, or zod 3.25+ through `zod/v4`. A zod 3 schema
  // (`import { z } from 'zod'` on zod 3) has no `_zod` and would fail deep inside toJSONSchema.
  if (typeof tool.parameters !== 'object' || tool.parameters === null || !('_zod' in tool.parameters)) {
    throw new Error(
      `tool ${tool.name}: parameters must be a zod 4 schema; on zod 3.25 or newer 3.x, import { z } from 'zod/v4'`,
    );
  }
  const schema = z.toJSONSchema(tool.parameters, { io: 'input', target: 'draft-7' }) as Record<string, unknown>;
  if (schema.type !== 'object') {
    throw new Error(`tool ${tool.name}: parameters must be a zod object`);
  }
  const { $schema: _schema, ...rest } = schema;
  const properties = { ...((rest.properties as Record<string, unknown> | undefined) ?? {}) };
  properties[RISK_LEVEL_PROPERTY] = { ...riskLevelJsonSchema, enum: [...riskLevelJsonSchema.enum] };
  return { name: tool.name, description: tool.description, parameters: { ...rest, properties } };
}
