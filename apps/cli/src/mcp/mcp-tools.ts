import type { CallToolResult, Tool } from '@modelcontextprotocol/sdk/types.js';
import type { GatedCallOutcome } from '@riskgate/core';
import {
  type AnyTool,
  RISK_LEVEL_DESCRIPTION,
  RISK_LEVEL_PROPERTY,
  type SafetyMode,
  toolFunctionDefinition,
} from '@riskgate/risk';

/**
 * Every tool's `outputSchema`: what the gate made of the call, and the text the model reads.
 * One shape for all tools, on purpose: `text` is the output guard's copy (secrets withheld,
 * exactly the text content), so nothing the text withholds can reach `structuredContent` —
 * the tools' raw data (SQL rows, a file's bytes) never passed the guard and is not served.
 */
export const MCP_OUTPUT_SCHEMA = {
  type: 'object',
  properties: {
    state: {
      type: 'string',
      enum: ['succeeded', 'failed', 'denied', 'cancelled'],
      description: 'succeeded: it ran; failed: it ran and failed; denied: not run (refused or declined); cancelled',
    },
    text: {
      type: 'string',
      description: 'The result as the model reads it, the same as the text content: secrets withheld',
    },
    decision: {
      type: 'object',
      description: "The gate's decision, when the call reached it",
      properties: {
        action: { type: 'string', enum: ['execute', 'confirm', 'deny'] },
        source: { type: 'string' },
        level: { type: ['string', 'null'], enum: ['low', 'medium', 'high', null] },
        reasons: { type: 'array', items: { type: 'string' } },
      },
      required: ['action', 'source', 'level', 'reasons'],
    },
  },
  required: ['state', 'text'],
} as const satisfies Tool['outputSchema'];

/**
 * What `risk_level` means to a client's model under each mode: the assistant's words (spec 002)
 * promise that `low` runs at once, which holds in smart mode only. Elsewhere the client is told
 * what riskgate will do with its rating, so it does not expect a side effect to run unasked.
 */
export function riskLevelDescriptionFor(mode: SafetyMode): string {
  if (mode === 'smart' || mode === 'yolo') return RISK_LEVEL_DESCRIPTION;
  const low =
    mode === 'strict'
      ? "in this server's strict mode your rating is not taken: every operation is confirmed with the person, or refused when they cannot be asked"
      : "in this server's guarded mode 'low' runs at once only what riskgate's own checks find no side effect or secret read in; " +
        'anything they find one in (a write, a delete, a DROP, a POST, rm) is confirmed with the person, or refused when they cannot be asked';
  return `Optional: your risk assessment of this operation (low | medium | high); ${low}. 'medium' or 'high' = requires the person's confirmation.`;
}

/** A gated tool as MCP lists it: its JSON schema, its title and honest annotations, the output schema. */
export function toMcpTool(tool: AnyTool, mode: SafetyMode = 'smart'): Tool {
  const definition = toolFunctionDefinition(tool);
  const hints = tool.hints;
  const parameters = definition.parameters as Tool['inputSchema'];
  const properties = parameters.properties as Record<string, object> | undefined;
  const inputSchema =
    properties?.[RISK_LEVEL_PROPERTY] === undefined
      ? parameters
      : {
          ...parameters,
          properties: {
            ...properties,
            [RISK_LEVEL_PROPERTY]: { ...properties[RISK_LEVEL_PROPERTY], description: riskLevelDescriptionFor(mode) },
          },
        };
  return {
    name: definition.name,
    ...(hints === undefined ? {} : { title: hints.title }),
    description: definition.description,
    inputSchema,
    outputSchema: MCP_OUTPUT_SCHEMA as unknown as Tool['outputSchema'],
    // A tool without hints is described by the worst it could do: an unknown tool may change anything.
    annotations: {
      ...(hints === undefined ? {} : { title: hints.title }),
      readOnlyHint: hints?.readOnly ?? false,
      destructiveHint: hints?.destructive ?? true,
      idempotentHint: hints?.idempotent ?? false,
      openWorldHint: hints?.openWorld ?? true,
    },
  };
}

/** One outcome as a tools/call result: the guarded text as content and as structuredContent. */
export function toCallResult(outcome: GatedCallOutcome): CallToolResult {
  const decision =
    outcome.decision === undefined
      ? undefined
      : {
          action: outcome.decision.action,
          source: outcome.decision.source,
          level: outcome.decision.level,
          reasons: outcome.decision.reasons,
        };
  return {
    content: [{ type: 'text' as const, text: outcome.forModel }],
    structuredContent: {
      state: outcome.state,
      text: outcome.forModel,
      ...(decision === undefined ? {} : { decision }),
    },
    isError: outcome.state !== 'succeeded',
    _meta: {
      'riskgate/state': outcome.state,
      ...(decision === undefined ? {} : { 'riskgate/decision': decision }),
    },
  };
}
