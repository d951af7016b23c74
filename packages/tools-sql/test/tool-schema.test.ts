import { toolFunctionDefinition } from '@riskgate/risk';
import { describe, expect, it } from 'vitest';
import { createDescribeSchemaTool, createExecuteSqlTool } from '../src/index.js';

describe('what the model sees', () => {
  it.each([
    ['execute_sql', createExecuteSqlTool()],
    ['describe_schema', createDescribeSchemaTool()],
  ])('%s: its JSON schema, with the optional risk_level enum', (name, tool) => {
    const definition = toolFunctionDefinition(tool);
    expect(definition.name).toBe(name);
    expect(
      (definition.parameters as { properties: Record<string, { enum?: string[] }> }).properties.risk_level?.enum,
    ).toEqual(['low', 'medium', 'high']);
    expect(definition).toMatchSnapshot();
  });
});
