import {
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  realpathSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { addTrustedProject, ConfigError, listTrustedProjects, removeTrustedProject } from '../src/index.js';

const root = realpathSync(mkdtempSync(join(tmpdir(), 'riskgate-trust-store-')));
afterAll(() => rmSync(root, { recursive: true, force: true }));
let counter = 0;

function home(config?: string) {
  const directory = join(root, `home-${counter++}`);
  mkdirSync(join(directory, 'riskgate'), { recursive: true });
  const file = join(directory, 'riskgate', 'config.json');
  if (config !== undefined) writeFileSync(file, config, { mode: 0o640 });
  return { env: { XDG_CONFIG_HOME: directory }, file };
}

describe('the trusted list in the user config', () => {
  it('adds a project and keeps every other setting, in order', () => {
    const { env, file } = home(
      JSON.stringify({ model: 'gpt-4.1-mini', rules: { deny: ['execute_command(rm *)'] }, mode: 'guarded' }),
    );
    expect(addTrustedProject('/srv/a', env)).toEqual({ file, changed: true });
    expect(addTrustedProject('/srv/b', env).changed).toBe(true);
    expect(readFileSync(file, 'utf8')).toBe(
      `${JSON.stringify({ model: 'gpt-4.1-mini', rules: { deny: ['execute_command(rm *)'] }, mode: 'guarded', trustedProjects: ['/srv/a', '/srv/b'] }, null, 2)}\n`,
    );
    expect(listTrustedProjects(env)).toEqual(['/srv/a', '/srv/b']);
  });

  it('adding twice changes nothing; removing takes out exactly that one and then the field', () => {
    const { env, file } = home(JSON.stringify({ trustedProjects: ['/srv/a', '/srv/b'], model: 'm' }));
    expect(addTrustedProject('/srv/a', env).changed).toBe(false);
    expect(removeTrustedProject('/srv/a', env).changed).toBe(true);
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual({ trustedProjects: ['/srv/b'], model: 'm' });
    expect(removeTrustedProject('/srv/b', env).changed).toBe(true);
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual({ model: 'm' });
    expect(removeTrustedProject('/srv/b', env).changed).toBe(false);
  });

  it('creates the config folder and file when absent, readable by the person alone (it may hold an API key)', () => {
    const directory = join(root, `fresh-${counter++}`);
    const env = { XDG_CONFIG_HOME: directory };
    addTrustedProject('/srv/a', env);
    const file = join(directory, 'riskgate', 'config.json');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual({ trustedProjects: ['/srv/a'] });
  });

  it('keeps the permissions of an existing file and leaves no temporary file behind', () => {
    const { env, file } = home('{}');
    addTrustedProject('/srv/a', env);
    expect(statSync(file).mode & 0o777).toBe(0o640);
    expect(readdirSync(join(file, '..'))).toEqual(['config.json']);
  });

  it('writes through a symlinked config (dotfiles), so the link survives', () => {
    const { env, file } = home();
    const dotfiles = join(root, `dotfiles-${counter++}`);
    mkdirSync(dotfiles);
    writeFileSync(join(dotfiles, 'riskgate.json'), JSON.stringify({ model: 'm' }));
    symlinkSync(join(dotfiles, 'riskgate.json'), file);
    addTrustedProject('/srv/a', env);
    expect(lstatSync(file).isSymbolicLink()).toBe(true);
    expect(JSON.parse(readFileSync(join(dotfiles, 'riskgate.json'), 'utf8'))).toEqual({
      model: 'm',
      trustedProjects: ['/srv/a'],
    });
  });

  it.each([
    ['not JSON', '{ "model": ', /config\.json: not valid JSON: .*riskgate does not overwrite it/],
    ['an unknown field', '{ "colour": "blue" }', /config\.json: \(top level\): unknown field "colour"; fix it first/],
    ['a wrong type', '{ "trustedProjects": "/srv/a" }', /config\.json: trustedProjects: Invalid input/],
    ['a relative trusted path', '{ "trustedProjects": ["srv"] }', /trustedProjects\.0: expected an absolute path/],
    ['a bad rule', '{ "rules": { "deny": ["execute_sql(x"] } }', /rules\.deny\[0\]/],
  ])('refuses a user config with %s, with a clear error, and does not touch it', (_name, text, message) => {
    const { env, file } = home(text);
    expect(() => addTrustedProject('/srv/a', env)).toThrow(ConfigError);
    expect(() => addTrustedProject('/srv/a', env)).toThrow(message);
    expect(() => removeTrustedProject('/srv/a', env)).toThrow(message);
    expect(() => listTrustedProjects(env)).toThrow(message);
    expect(readFileSync(file, 'utf8')).toBe(text);
    expect(readdirSync(join(file, '..'))).toEqual(['config.json']);
  });

  it('lists nothing when there is no user config', () => {
    expect(listTrustedProjects({ XDG_CONFIG_HOME: join(root, 'nowhere') })).toEqual([]);
    expect(existsSync(join(root, 'nowhere'))).toBe(false);
  });
});
