import { mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ConfigError, configJsonSchema, loadConfig } from '../src/index.js';

const root = mkdtempSync(join(tmpdir(), 'riskgate-config-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

function setup(name: string, user?: unknown, project?: unknown) {
  const home = join(root, name, 'config-home');
  const projectDirectory = join(root, name, 'project');
  mkdirSync(join(home, 'riskgate'), { recursive: true });
  mkdirSync(join(projectDirectory, '.riskgate'), { recursive: true });
  if (user !== undefined)
    writeFileSync(join(home, 'riskgate', 'config.json'), typeof user === 'string' ? user : JSON.stringify(user));
  if (project !== undefined)
    writeFileSync(
      join(projectDirectory, '.riskgate', 'config.json'),
      typeof project === 'string' ? project : JSON.stringify(project),
    );
  return {
    env: { XDG_CONFIG_HOME: home },
    projectDirectory,
    userFile: join(home, 'riskgate', 'config.json'),
    projectFile: join(projectDirectory, '.riskgate', 'config.json'),
  };
}

describe('loadConfig', () => {
  it('has defaults: smart mode, no rules, 20 steps', () => {
    const { env, projectDirectory } = setup('defaults');
    const config = loadConfig({ projectDirectory, env });
    expect(config).toMatchObject({ mode: 'smart', maxSteps: 20, policy: { mode: 'smart', rules: [] } });
    expect(config.model).toBeUndefined();
  });

  it("takes a caller's default mode when no layer names one (riskgate mcp: guarded); an untrusted project cannot loosen it", () => {
    const { env, projectDirectory } = setup('default-mode', undefined, { mode: 'smart' });
    expect(loadConfig({ projectDirectory, env, defaultMode: 'guarded' }).policy.mode).toBe('guarded');
    expect(
      loadConfig({ projectDirectory, env: { ...env, RISKGATE_MODE: 'smart' }, defaultMode: 'guarded' }).policy.mode,
    ).toBe('smart');
    expect(loadConfig({ projectDirectory, env, flags: { mode: 'strict' }, defaultMode: 'guarded' }).policy.mode).toBe(
      'strict',
    );
  });

  it('layers user file, trusted project file, environment and flags: later wins', () => {
    const { env, projectDirectory, userFile, projectFile } = setup(
      'layers',
      { model: 'user-model', mode: 'strict', sql: { maxRows: 100, modelRows: 10 } },
      { model: 'project-model', sql: { maxRows: 200 } },
    );
    writeFileSync(
      userFile,
      JSON.stringify({
        model: 'user-model',
        mode: 'strict',
        sql: { maxRows: 100, modelRows: 10 },
        trustedProjects: [realpathSync(projectDirectory)],
      }),
    );
    const config = loadConfig({
      projectDirectory,
      env: { ...env, OPENAI_BASE_URL: 'http://127.0.0.1:1234/v1', OPENAI_API_KEY: 'k' },
      flags: { mode: 'guarded' },
    });
    expect(config).toMatchObject({
      model: 'project-model',
      mode: 'guarded',
      baseURL: 'http://127.0.0.1:1234/v1',
      apiKey: 'k',
      sql: { maxRows: 200, modelRows: 10 },
    });
    expect(config.policy.mode).toBe('guarded');
    expect(config.sources).toEqual([userFile, projectFile, 'environment', 'command line']);
    expect(loadConfig({ projectDirectory, env: { ...env, RISKGATE_MODEL: 'env-model' } }).model).toBe('env-model');
  });

  it('adds up rules from every layer, so a project cannot drop the person’s deny rules', () => {
    const { env, projectDirectory, userFile } = setup(
      'rules',
      { rules: { deny: ['execute_command(rm *)'] } },
      { rules: { allow: ['execute_sql(SELECT *)'] } },
    );
    writeFileSync(
      userFile,
      JSON.stringify({ rules: { deny: ['execute_command(rm *)'] }, trustedProjects: [realpathSync(projectDirectory)] }),
    );
    const rules = loadConfig({ projectDirectory, env }).policy.rules.map((rule) => `${rule.effect} ${rule.text}`);
    expect(rules).toEqual(['deny execute_command(rm *)', 'allow execute_sql(SELECT *)']);
  });

  it.each([
    ['{ "model": ', /config\.json: not valid JSON/],
    [{ mode: 'reckless' }, /config\.json: mode: Invalid option: expected one of "strict"\|"smart"\|"guarded"\|"yolo"/],
    [{ maxSteps: 'ten' }, /config\.json: maxSteps: Invalid input: expected number, received string/],
    [{ colour: 'blue' }, /config\.json: \(top level\): unknown field "colour"/],
    [{ sql: { maxRow: 5 } }, /config\.json: sql: unknown field "maxRow"/],
    [
      { rules: { allow: ['execute_sql(SELECT *'] } },
      /config\.json: rules\.allow\[0\]: rule "execute_sql\(SELECT \*": the pattern must end with "\)"/,
    ],
    [{ baseURL: 'not a url' }, /config\.json: baseURL: Invalid URL/],
  ])('names the file, the field and what was expected: %j', (user, message) => {
    const { env, projectDirectory, userFile } = setup(`bad-${Math.random()}`, user);
    expect(() => loadConfig({ projectDirectory, env })).toThrow(ConfigError);
    expect(() => loadConfig({ projectDirectory, env })).toThrow(message);
    expect(() => loadConfig({ projectDirectory, env })).toThrow(userFile);
  });

  it('names the environment variable that is wrong', () => {
    const { env, projectDirectory } = setup('bad-env');
    expect(() => loadConfig({ projectDirectory, env: { ...env, RISKGATE_MODE: 'loose' } })).toThrow(
      /environment variable RISKGATE_MODE: Invalid option/,
    );
  });
});

describe('the JSON Schema for editors', () => {
  it('ships as config.schema.json and matches the zod schema', () => {
    const shipped = JSON.parse(readFileSync(new URL('../config.schema.json', import.meta.url), 'utf8'));
    expect(shipped).toEqual({ title: 'riskgate configuration', ...configJsonSchema() });
    expect(Object.keys(shipped.properties)).toEqual(
      expect.arrayContaining(['model', 'baseURL', 'mode', 'rules', 'sql', 'http']),
    );
  });
});
