import { join } from 'node:path';
import { z } from 'zod';
import { defineTool, type Effect, report } from '../src/index.js';

/**
 * A small tool for gate tests: `op` names operations separated by `;`, each one a subject.
 * `read X` reads a workspace file (whitelisted); `wipe X` deletes (a known danger); `write X`
 * writes; `run X` runs a program; `fetch` reads a public URL (a read that brings untrusted
 * content); `token` reads a secret environment variable; anything else is unknown.
 */
export const sampleTool = defineTool({
  name: 'sample_tool',
  description: 'Runs sample operations',
  noun: 'operation',
  title: ({ op }) => op,
  parameters: z.object({ op: z.string().min(1) }),
  ruleStyle: 'text',
  assess: ({ op }, context) => {
    const subjects = op.split(';').map((part) => part.trim());
    const effects = subjects.map((subject): Effect => {
      const [verb = '', target = 'x'] = subject.split(/\s+/);
      switch (verb) {
        case 'read':
          return { kind: 'read-path', path: join(context.cwd, target) };
        case 'wipe':
          return { kind: 'delete-path', path: join(context.cwd, target), recursive: true };
        case 'write':
          return { kind: 'write-path', path: join(context.cwd, target) };
        case 'run':
          return { kind: 'run-program', program: target };
        case 'fetch':
          return { kind: 'connect', host: '93.184.215.14', port: 443, scheme: 'https', method: 'GET' };
        case 'token':
          return { kind: 'read-env', names: ['GITHUB_TOKEN'] };
        default:
          return { kind: 'unknown', detail: `${verb} is not a known operation` };
      }
    });
    return report(effects, subjects);
  },
  describe: ({ op }) => ({ kind: 'generic', summary: op, details: [] }),
  execute: async ({ op }) => ({ type: 'tool-success', forModel: op, data: op }),
});
