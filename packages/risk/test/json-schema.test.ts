import { describe, expect, it } from 'vitest';
import { RISK_LEVEL_DESCRIPTION, toolFunctionDefinition } from '../src/index.js';
import { sampleTool } from './fixtures.js';

describe('toolFunctionDefinition', () => {
  it('adds the optional risk_level enum to the parameters (spec 003)', () => {
    const definition = toolFunctionDefinition(sampleTool);
    const parameters = definition.parameters as { properties: Record<string, unknown>; required: string[] };
    expect(parameters.properties.risk_level).toEqual({
      type: 'string',
      enum: ['low', 'medium', 'high'],
      description: RISK_LEVEL_DESCRIPTION,
    });
    expect(parameters.required).toEqual(['op']);
    expect(parameters.required).not.toContain('risk_level');
  });

  it('explains low = execute automatically, medium/high = confirmation', () => {
    expect(RISK_LEVEL_DESCRIPTION).toMatch(/'low'.*automatically/);
    expect(RISK_LEVEL_DESCRIPTION).toMatch(/'medium' or 'high'.*confirmation/);
    expect(RISK_LEVEL_DESCRIPTION).toMatch(/omitted/i);
  });
});
