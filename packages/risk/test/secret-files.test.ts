import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { secretFilesBelow } from '../src/index.js';

const root = mkdtempSync(join(tmpdir(), 'riskgate-secret-files-'));
const home = join(root, 'home');
afterAll(() => rmSync(root, { recursive: true, force: true }));

function tree(name: string, files: Record<string, string>): string {
  const directory = join(root, name);
  for (const [path, content] of Object.entries(files)) {
    mkdirSync(join(directory, path, '..'), { recursive: true });
    writeFileSync(join(directory, path), content);
  }
  return directory;
}

const found = (directory: string) => secretFilesBelow(directory, { home }).files.map((file) => file.path.slice(directory.length + 1)).sort();

describe('secret files at any depth (the sandbox hides them)', () => {
  it('finds them by name and by content, deep down, and leaves the rest', () => {
    const directory = tree('mixed', {
      'a/b/c/.env': 'X=1\n',
      'a/b/id_ed25519': 'x\n',
      'a/b/c/d/wp-config.php': "<?php define('DB_PASSWORD', 'wp-9x7c');\n",
      'srv/conf/app.ini': '[db]\npassword = Ini-p4ss\n',
      'README.md': '# readme\n',
      'src/login.ts': 'export const login = (password: string) => sign(password);\n',
      '.env.example': 'API_KEY=\n',
      'node_modules/pkg/.env': 'TOKEN=t0k3n-in-a-package\n',
    });
    expect(found(directory)).toEqual(['a/b/c/.env', 'a/b/c/d/wp-config.php', 'a/b/id_ed25519', 'srv/conf/app.ini']);
  });

  it('judges a file again when it changes, and only then', () => {
    const directory = tree('changing', { 'config/app.yml': 'port: 8080\n' });
    expect(found(directory)).toEqual([]);
    writeFileSync(join(directory, 'config/app.yml'), 'port: 8080\npassword: yml-s3cret\n');
    // Same mtime as before would not fool it: the size changed too.
    utimesSync(join(directory, 'config/app.yml'), new Date(1_000_000), new Date(1_000_000));
    expect(found(directory)).toEqual(['config/app.yml']);
    writeFileSync(join(directory, 'config/new.env'), 'A=1\n');
    expect(found(directory)).toEqual(['config/app.yml', 'config/new.env']);
  });

  it('says when a limit cut the walk short', () => {
    const files = Object.fromEntries(Array.from({ length: 50 }, (_, index) => [`f${index}.txt`, 'x\n']));
    const directory = tree('many', files);
    expect(secretFilesBelow(directory, { home, maxEntries: 10 }).complete).toBe(false);
    expect(secretFilesBelow(directory, { home }).complete).toBe(true);
  });
});
