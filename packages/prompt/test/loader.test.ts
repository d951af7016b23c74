import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadPrompt, PromptError } from '../src/index.js';

const root = mkdtempSync(join(tmpdir(), 'riskgate-prompt-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
const chat = { tools: 'execute_command, file_operations, http_request', workspace: '/w', os: 'Linux' };

describe('loadPrompt', () => {
  it('fills variables and includes the risk guidance', () => {
    const text = loadPrompt('system-chat', chat);
    expect(text).toContain('Workspace: /w');
    expect(text).toContain('execute_command, file_operations, http_request');
    expect(text).toContain('## Risk levels in tool calls');
    expect(text).not.toMatch(/\{\{/);
  });

  it('says so when a template uses a variable that was not given', () => {
    expect(() => loadPrompt('system-sql', { dialect: 'sqlite' })).toThrow(
      /system-sql\.md uses \{\{database\}\}, which is not a known variable/,
    );
  });

  it('says so for a template that does not exist', () => {
    expect(() => loadPrompt('system-nope')).toThrow(PromptError);
    expect(() => loadPrompt('system-nope')).toThrow(
      /no prompt template named "system-nope"; templates: risk-guidance, system-sql, system-chat/,
    );
  });

  it('takes overrides from the project first, then the user, then the built-in', () => {
    const project = join(root, 'project');
    const user = join(root, 'user');
    mkdirSync(project);
    mkdirSync(user);
    writeFileSync(join(user, 'risk-guidance.md'), 'USER GUIDANCE');
    expect(loadPrompt('system-chat', chat, { userDirectory: user })).toContain('USER GUIDANCE');
    writeFileSync(join(project, 'risk-guidance.md'), 'PROJECT GUIDANCE for {{workspace}}');
    const text = loadPrompt('system-chat', chat, { projectDirectory: project, userDirectory: user });
    expect(text).toContain('PROJECT GUIDANCE for /w');
    expect(text).not.toContain('USER GUIDANCE');
  });

  it('refuses include loops', () => {
    const loop = join(root, 'loop');
    mkdirSync(loop);
    writeFileSync(join(loop, 'risk-guidance.md'), '{{> system-chat}}');
    expect(() => loadPrompt('system-chat', chat, { projectDirectory: loop })).toThrow(
      /loop: system-chat → risk-guidance → system-chat/,
    );
  });
});
