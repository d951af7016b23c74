// The scratch workspace the corpus's lines name: every file and directory of fixture-files.json
// (a directory when its name says so), in a workspace below a fake home that also holds the
// secrets people keep there, so a line that reaches them is judged as it would be at home.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const HERE = dirname(fileURLToPath(import.meta.url));

/** Not real keys: shapes the knowledge base recognises. */
const HOME_FILES = {
  '.ssh/id_rsa':
    '-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAAFAKE\n-----END OPENSSH PRIVATE KEY-----\n',
  '.aws/credentials':
    '[default]\naws_access_key_id = AKIAIOSFODNN7EXAMPLE\naws_secret_access_key = wJalrXUtnFEMIEXAMPLE\n',
  '.bashrc': 'alias ll="ls -la"\n',
  '.gitconfig': '[user]\n  name = Dev\n',
};

const isDirectory = (name) =>
  /(^|\/|_)(directory|dir|folder|repo|repository|project)[0-9]*$|\/$/i.test(name) || /^(src|docs|app)$/.test(name);

/** Creates the fixture below the system temp directory; `cleanup()` removes it. */
export function buildFixture() {
  const fix = mkdtempSync(join(tmpdir(), 'real-world-'));
  const home = join(fix, 'home');
  const ws = join(home, 'code/app');
  for (const [path, content] of Object.entries(HOME_FILES)) {
    mkdirSync(dirname(join(home, path)), { recursive: true });
    writeFileSync(join(home, path), content, { mode: 0o600 });
  }
  mkdirSync(ws, { recursive: true });
  const { files } = JSON.parse(readFileSync(join(HERE, 'fixture-files.json'), 'utf8'));
  for (const name of files) {
    // Options and globs that a placeholder held are words, not files.
    if (name.startsWith('-') || /[*?[\]{}]/.test(name) || name === '.' || name.includes('..')) continue;
    const path = join(ws, name);
    try {
      if (isDirectory(name)) mkdirSync(path, { recursive: true });
      else {
        mkdirSync(dirname(path), { recursive: true });
        writeFileSync(path, name === '.env' ? 'API_KEY=sk-FAKEfakeFAKE\n' : `${name}\n`);
      }
    } catch {
      // A name that is both a file and a directory's prefix (`archive`, `archive/x`): the first wins.
    }
  }
  return { fix, home, ws, cleanup: () => rmSync(fix, { recursive: true, force: true }) };
}

/** The two data files, one line a row. */
export function loadCorpus() {
  const load = (name) =>
    readFileSync(join(HERE, name), 'utf8')
      .split('\n')
      .filter((line) => line !== '')
      .map((line) => JSON.parse(line));
  return { read: load('read-only.jsonl'), side: load('side-effect.jsonl') };
}
