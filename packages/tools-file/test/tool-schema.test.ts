import { toolFunctionDefinition } from '@riskgate/risk';
import { expect, it } from 'vitest';
import { createFileOperationsTool } from '../src/index.js';

it('file_operations: what the model sees, with the optional risk_level enum', () => {
  const definition = toolFunctionDefinition(createFileOperationsTool());
  expect(
    (definition.parameters as { properties: Record<string, { enum?: string[] }> }).properties.risk_level?.enum,
  ).toEqual(['low', 'medium', 'high']);
  expect(definition).toMatchSnapshot();
});
