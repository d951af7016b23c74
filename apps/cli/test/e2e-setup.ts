import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type ScriptedModelServer, type ScriptedReply, startScriptedModelServer } from '@riskgate/testing';
import { afterEach } from 'vitest';
import { TmuxTerminal } from './tmux.js';

/**
 * One end-to-end scene: a scratch directory (config, state and cache inside it), a scripted
 * model server on 127.0.0.1, and the terminal the test opens; all removed after each test.
 */
export function e2eScene() {
  const scene: { server?: ScriptedModelServer; terminal?: TmuxTerminal; directory?: string } = {};
  afterEach(async () => {
    scene.terminal?.close();
    await scene.server?.close();
    if (scene.directory !== undefined) rmSync(scene.directory, { recursive: true, force: true });
    scene.terminal = undefined;
    scene.server = undefined;
    scene.directory = undefined;
  });
  return {
    async start(replies: ScriptedReply[], serverOptions: Parameters<typeof startScriptedModelServer>[1] = {}) {
      const directory = mkdtempSync(join(tmpdir(), 'riskgate-e2e-'));
      scene.directory = directory;
      scene.server = await startScriptedModelServer(replies, serverOptions);
      const env = {
        OPENAI_BASE_URL: scene.server.baseURL,
        RISKGATE_MODEL: 'scripted-model',
        XDG_CONFIG_HOME: join(directory, 'config'),
        XDG_STATE_HOME: join(directory, 'state'),
        XDG_CACHE_HOME: join(directory, 'cache'),
        RISKGATE_TYPE_AHEAD_MS: '0',
      };
      return { directory, env, server: scene.server };
    },
    open(command: string, env: Record<string, string>, size?: { columns: number; rows: number }): TmuxTerminal {
      scene.terminal = new TmuxTerminal(command, env, size);
      return scene.terminal;
    },
  };
}

export const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * After a panel is on screen, the time its keys take to reach it: Ink subscribes a new
 * component's input handler just after painting it (the tests run without the type-ahead guard).
 */
export const settle = () => pause(250);
