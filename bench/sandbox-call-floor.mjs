// The floor for bench/sandbox-call.bench.ts: a bare Node process (no riskgate, no WebAssembly)
// that runs the bwrap command line it is handed with execa, the way any Node program would, and
// reports how long each run took. Messages: { file, args, cwd, env, filter } → { ms }.
import { closeSync, openSync } from 'node:fs';

const { execa } = await import(process.argv[2]);
process.on('message', async (run) => {
  const fd = openSync(run.filter, 'r');
  const started = performance.now();
  const result = await execa(run.file, run.args, {
    cwd: run.cwd,
    env: run.env,
    extendEnv: false,
    reject: false,
    stdio: ['ignore', 'pipe', 'pipe', fd],
  });
  const ms = performance.now() - started;
  closeSync(fd);
  process.send({ ms, exitCode: result.exitCode, stderr: String(result.stderr).slice(0, 500) });
});
process.send({ ready: true });
