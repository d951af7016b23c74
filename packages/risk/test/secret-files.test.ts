import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, truncateSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { MAX_FILE_BYTES } from '../src/knowledge/file-verdict.js';
import { scanTree, secretFilesBelow } from '../src/index.js';

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

const found = (directory: string) =>
  secretFilesBelow(directory, { home })
    .files.map((file) => file.path.slice(directory.length + 1))
    .sort();

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
      // Dependencies are walked too (the red team read a package's `.env` and a vendored config).
      'node_modules/pkg/.env': 'TOKEN=t0k3n-in-a-package\n',
      'node_modules/pkg/config.json': '{"password": "p4ckage-pw-1"}\n',
      'vendor/lib/settings.php': "<?php define('DB_PASSWORD', 'v3ndor-pw-2');\n",
      // …but not their code and manifests, which hold the packages' own examples.
      'node_modules/pg/lib/client.js': 'const password = "d3fault-pw-in-code";\n',
      'node_modules/pg/package.json': '{"dependencies": {"pg-connection-string": "^2.9.1"}}\n',
    });
    expect(found(directory)).toEqual([
      'a/b/c/.env',
      'a/b/c/d/wp-config.php',
      'a/b/id_ed25519',
      'node_modules/pkg/.env',
      'node_modules/pkg/config.json',
      'srv/conf/app.ini',
      'vendor/lib/settings.php',
    ]);
  });

  it('reads whole files and unpacks compressed ones; what it cannot check is hidden as unchecked', () => {
    const log = 'INFO request served in 12 ms path=/api/items status=200\n'.repeat(6_000); // 336 KB
    const directory = tree('whole', {
      // Past every head the scans used to read (8 KiB, 64 KiB, 256 KiB).
      'logs/big.log': `${log}DB_PASSWORD=p4st-the-head-9\n`,
      'logs/clean.log': log,
      'users.csv': 'id,email,password\n1,bob@example.com,Tr0ub4dor&3\n',
      'scores.csv': 'id,name,token_count\n1,bob,42\n',
    });
    writeFileSync(join(directory, 'env.gz'), gzipSync('DB_PASSWORD=gz1pped-pw-3\n'));
    writeFileSync(join(directory, 'notes.gz'), gzipSync('nothing to see here\n'));
    execFileSync(
      'bash',
      [
        '-c',
        "printf 'API_TOKEN=bz1pped-pw-4\\n' | bzip2 > env.bz2 && printf 'API_TOKEN=xzz1pped-pw-5\\n' | xz > env.xz && d=$(mktemp -d) && printf 'password = z1pped-pw-6\\n' > $d/app.ini && (cd $d && zip -q archive.zip app.ini) && mv $d/archive.zip creds.zip && printf 'password = t4rred-pw-7\\n' > $d/app.ini && tar -czf secrets.tar.gz -C $d app.ini && rm -r $d",
      ],
      { cwd: directory },
    );
    // Larger than the bound: not read, hidden as unchecked (sparse: no 16 MiB written).
    writeFileSync(join(directory, 'huge.bin'), '');
    truncateSync(join(directory, 'huge.bin'), MAX_FILE_BYTES + 1);
    const scan = secretFilesBelow(directory, { home });
    expect(scan.files.map((file) => file.path.slice(directory.length + 1)).sort()).toEqual([
      'creds.zip',
      'env.bz2',
      'env.gz',
      'env.xz',
      'huge.bin',
      'logs/big.log',
      'secrets.tar.gz',
      'users.csv',
    ]);
    expect(scan.files.find((file) => file.path.endsWith('huge.bin'))?.what).toMatch(/too large to check.*unchecked/);
    expect(scan.files.find((file) => file.path.endsWith('env.gz'))?.what).toMatch(/DB_PASSWORD.*gzip/);
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

describe('recursive reads (scanTree) read whole files and say when they stopped short', () => {
  it('finds a secret past the head and inside a gzip, and is incomplete when its file budget runs out', () => {
    const directory = tree('recursive', {
      'logs/app.log': `${'INFO ok status=200 path=/api/items\n'.repeat(3_000)}DB_PASSWORD=p4st-the-head-9\n`,
      'a.txt': 'a\n',
      'b.txt': 'b\n',
      'c.txt': 'c\n',
    });
    writeFileSync(join(directory, 'env.gz'), gzipSync('DB_PASSWORD=gz1pped-pw-3\n'));
    const facts = scanTree(directory, { home })
      .facts.map((fact) => fact.path.slice(directory.length + 1))
      .sort();
    expect(facts).toEqual(['env.gz', 'logs/app.log']);
    // Two files checked of five: the rest is not known to hold no secret.
    expect(scanTree(join(root, 'recursive'), { home, maxSniffs: 2 }).complete).toBe(false);
    expect(scanTree(join(root, 'recursive'), { home }).complete).toBe(true);
  });
});
