// Writes config.schema.json from the zod schema; a test fails when the two differ.
import { writeFileSync } from 'node:fs';
import { configJsonSchema } from '../src/config.js';

writeFileSync(
  new URL('../config.schema.json', import.meta.url),
  `${JSON.stringify({ title: 'riskgate configuration', ...configJsonSchema() }, null, 2)}\n`,
);
