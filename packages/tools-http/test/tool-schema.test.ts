import { toolFunctionDefinition } from '@riskgate/risk';
import { expect, it } from 'vitest';
import { createHttpRequestTool } from '../src/index.js';

it('http_request: what the model sees, with the optional risk_level enum', () => {
  const definition = toolFunctionDefinition(createHttpRequestTool());
  expect(
    (definition.parameters as { properties: Record<string, { enum?: string[] }> }).properties.risk_level?.enum,
  ).toEqual(['low', 'medium', 'high']);
  expect(definition).toMatchSnapshot();
});
