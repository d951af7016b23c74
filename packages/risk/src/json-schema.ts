import { z } from 'zod';
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
  const schema = z.toJSONSchema(tool.parameters, { io: 'input', target: 'draft-7' }) as Record<string, unknown>;
  if (schema.type !== 'object') {
    throw new Error(`tool ${tool.name}: parameters must be a zod object`);
  }
  const { $schema: _schema, ...rest } = schema;
  const properties = { ...((rest.properties as Record<string, unknown> | undefined) ?? {}) };
  properties[RISK_LEVEL_PROPERTY] = { ...riskLevelJsonSchema, enum: [...riskLevelJsonSchema.enum] };
  return { name: tool.name, description: tool.description, parameters: { ...rest, properties } };
}
