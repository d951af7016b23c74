// Standalone: serve a model script from a file so anyone can drive riskgate without a model.
//   riskgate-model-server script.json [--port 8787]
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { startScriptedModelServer } from './model-server.js';
import { modelScript } from './script.js';

const { values, positionals } = parseArgs({ allowPositionals: true, options: { port: { type: 'string' } } });
const file = positionals[0];
if (file === undefined) {
  process.stderr.write('usage: riskgate-model-server <script.json> [--port N]\n');
  process.exit(1);
}
let script: ReturnType<typeof modelScript.parse>;
try {
  script = modelScript.parse(JSON.parse(readFileSync(file, 'utf8')));
} catch (error) {
  process.stderr.write(`riskgate-model-server: ${file}: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
}
const server = await startScriptedModelServer(script.replies, {
  model: script.model,
  ...(values.port === undefined ? {} : { port: Number(values.port) }),
});
process.stdout.write(`${server.baseURL}\n`);
const stop = () => void server.close().then(() => process.exit(0));
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
