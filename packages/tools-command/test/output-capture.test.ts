import { generateKeyPairSync } from 'node:crypto';
import { findSecretsIn } from '@riskgate/risk';
import { describe, expect, it } from 'vitest';
import { runCommand } from '../src/command-runner.js';
import { wasmNewlines } from '../src/newline-count-wasm.js';
import { countLines, countLinesByWords, HeadTail, LiveOutput } from '../src/output-capture.js';
import { OutputSigns } from '../src/run-limits.js';

const naive = (bytes: Uint8Array) => bytes.reduce((count, byte) => count + (byte === 0x0a ? 1 : 0), 0);

describe('countLines', () => {
  it.each([0, 1, 2, 3, 4, 5, 7, 8, 63, 64, 65, 1000])('counts every newline of %i bytes at any alignment', (size) => {
    const backing = Buffer.alloc(size + 8);
    for (let index = 0; index < backing.length; index++) backing[index] = index % 3 === 0 ? 0x0a : (index * 37) & 0xff;
    for (let offset = 0; offset < 4; offset++) {
      const view = backing.subarray(offset, offset + size);
      expect(countLines(view)).toBe(naive(view));
    }
  });

  it('counts the same with WebAssembly and by words as byte by byte, at every length and alignment', () => {
    // Lengths around the module's 64-byte steps and its 64 KiB window, bytes that differ from a
    // newline by one bit, and runs of newlines long enough to fill a byte lane (255).
    const backing = Buffer.alloc(200_000);
    let seed = 7;
    for (let index = 0; index < backing.length; index++) {
      seed = (seed * 1103515245 + 12345) >>> 0;
      const pick = seed >>> 24;
      backing[index] = pick < 90 ? 0x0a : pick < 110 ? 0x0b : pick < 130 ? 0x8a : pick < 140 ? 0x00 : pick;
    }
    backing.fill(0x0a, 70_000, 75_000);
    const lengths = [
      0, 1, 15, 16, 17, 63, 64, 65, 511, 512, 513, 4095, 16_384, 65_535, 65_536, 65_537, 131_073, 199_990,
    ];
    expect(wasmNewlines(Buffer.from('\n\n'))).toBe(2);
    for (const length of lengths) {
      for (let offset = 0; offset < 5; offset++) {
        const view = backing.subarray(offset, offset + length);
        const expected = naive(view);
        expect(wasmNewlines(view)).toBe(expected);
        expect(countLinesByWords(view)).toBe(expected);
        expect(countLines(view)).toBe(expected);
      }
    }
  });

  it('counts bytes next to a newline (0x0b, 0x8a, 0x00) as no newline', () => {
    const bytes = Buffer.from([0x0b, 0x8a, 0x00, 0x0a, 0x09, 0xff, 0x0a, 0x0a, 0x7f, 0x80, 0x0a]);
    expect(countLines(bytes)).toBe(4);
  });
});

describe('HeadTail', () => {
  it('keeps a bounded head and tail and counts the cut lines exactly, from counts handed in', () => {
    const capture = new HeadTail(100);
    let all = '';
    for (let line = 1; line <= 100_000; line += 100) {
      const text = Array.from({ length: 100 }, (_, index) => `${line + index}\n`).join('');
      all += text;
      const chunk = Buffer.from(text);
      capture.push(chunk, countLines(chunk));
    }
    const { head, tail, dropped, droppedLines } = capture.result();
    // Whole lines: the head ends one, the tail begins one (the line the window began inside is cut).
    expect(head.length).toBeGreaterThan(90);
    expect(head.length).toBeLessThanOrEqual(100);
    expect(all.startsWith(head.toString())).toBe(true);
    expect(head.at(-1)).toBe(0x0a);
    expect(tail.length).toBeGreaterThan(90);
    expect(all.endsWith(`\n${tail.toString()}`)).toBe(true);
    expect(dropped).toBe(all.length - head.length - tail.length);
    expect(droppedLines).toBe(naive(Buffer.from(all)) - naive(head) - naive(tail));
  });

  it('keeps everything when nothing is cut', () => {
    const capture = new HeadTail(100);
    capture.push(Buffer.from('a'.repeat(120)));
    capture.push(Buffer.from('b'.repeat(80)));
    const { head, tail, dropped, droppedLines } = capture.result();
    expect(`${head}${tail}`).toBe(`${'a'.repeat(120)}${'b'.repeat(80)}`);
    expect([dropped, droppedLines]).toEqual([0, 0]);
  });
});

/** The model's copy as the runner composes it from a capture of `text` with `half` bytes each side. */
function kept(text: string, half: number, chunk = 997): string {
  const capture = new HeadTail(half);
  const bytes = Buffer.from(text);
  for (let start = 0; start < bytes.length; start += chunk) capture.push(bytes.subarray(start, start + chunk));
  const { head, tail, dropped, droppedLines } = capture.result();
  expect(naive(head) + naive(tail) + droppedLines).toBe(naive(bytes));
  expect(head.length + tail.length + dropped).toBe(bytes.length);
  return dropped > 0 ? `${head}\n[cut]\n${tail}` : `${head}${tail}`;
}

/** Pieces of `secret` of `size` characters. */
const pieces = (secret: string, size: number) =>
  Array.from({ length: secret.length - size + 1 }, (_, index) => secret.slice(index, index + size));

/** Either the whole secret is kept, and the secret engine finds it, or no piece of it of 6 characters is. */
function expectWholeOrAbsent(text: string, secret: string): void {
  if (text.includes(secret)) {
    const found = findSecretsIn(text).some((finding) => text.slice(finding.start, finding.end).includes(secret));
    expect(found).toBe(true);
  } else {
    for (const piece of pieces(secret.replace(/-----[A-Z ]+-----/g, ''), 6))
      if (!/^[A-Za-z0-9+/]*\n|\n[A-Za-z0-9+/]*$/.test(piece) || !piece.includes('\n'))
        expect(text).not.toContain(piece);
  }
}

const TOKEN = 'ghp_aB3dE6gH9jK2mN5pQ8sT1vW4yZ7bC0eF3hJ6';
const filler = (lines: number, from = 1) =>
  Array.from({ length: lines }, (_, index) => `line ${from + index}\n`).join('');

describe("the cuts of the model's copy never split a secret", () => {
  const half = 2048;

  it('keeps a token the head cut goes through whole or not at all, at every cut point', () => {
    for (let shift = 0; shift <= 60; shift++) {
      const before = 'x'.repeat(half - 30 + shift);
      const text = `${before.slice(0, -1)}\ntoken: ${TOKEN} here\n${filler(2000)}`;
      expectWholeOrAbsent(kept(text, half), TOKEN);
    }
  });

  it('keeps a token the tail cut goes through whole or not at all, at every cut point', () => {
    for (let shift = 0; shift <= 60; shift++) {
      const after = 'y'.repeat(half - 30 + shift);
      const text = `${filler(2000)}token: ${TOKEN} here\n${after}`;
      expectWholeOrAbsent(kept(text, half), TOKEN);
    }
  });

  it('cuts a line longer than the window at a separator, never inside a token', () => {
    for (let shift = 0; shift <= 60; shift++) {
      const line = `${'a,'.repeat(half / 2 - 20 + shift / 2)}${shift % 2 ? 'b' : ''} ${TOKEN} ${'c,'.repeat(5000)}`;
      const copy = kept(`${line}${' d'.repeat(3000)} ${TOKEN} ${'e,'.repeat(half / 2 - 30 + shift)}`, half);
      expectWholeOrAbsent(copy.split('[cut]')[0]!, TOKEN);
      expectWholeOrAbsent(copy.split('[cut]')[1]!, TOKEN);
    }
  });

  it('leaves out a private key the cut goes through, in the head and in the tail, wrapped in base64 too', () => {
    const { privateKey } = generateKeyPairSync('rsa', {
      modulusLength: 2048,
      privateKeyEncoding: { type: 'pkcs1', format: 'pem' },
      publicKeyEncoding: { type: 'spki', format: 'pem' },
    });
    const pem = privateKey as string;
    const wrapped = `${Buffer.from(pem).toString('base64').replace(/.{76}/g, '$&\n')}\n`;
    const window = 4096;
    /** `bytes` of output before or after the block, in lines. */
    const pad = (bytes: number) => (bytes === 0 ? '' : `${'z'.repeat(bytes - 1)}\n`);
    for (const block of [pem, wrapped]) {
      const body = block.split('\n').filter((line) => line.length >= 40 && !line.startsWith('-----'));
      for (let at = 1; at < block.length; at += 37) {
        // The head's cut `at` bytes into the block; then the tail's.
        const head = kept(`${pad(window - at)}${block}${filler(3000)}`, window);
        const tail = kept(`${filler(3000)}${block}${pad(window - (block.length - at))}`, window);
        for (const line of body) {
          expect(head).not.toContain(line);
          expect(tail).not.toContain(line);
        }
      }
    }
  });

  it('keeps the whole of a key that is not cut, for the secret engine to find', () => {
    const { privateKey } = generateKeyPairSync('ec', {
      namedCurve: 'P-256',
      privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
      publicKeyEncoding: { type: 'spki', format: 'pem' },
    });
    const copy = kept(`${filler(3)}${privateKey}${filler(5000)}`, half);
    expect(copy).toContain(privateKey);
    expect(findSecretsIn(copy).length).toBeGreaterThan(0);
  });

  it('holds through the runner: a token on the cut line reaches the model whole or not at all', async () => {
    // seq 1 N prints lines of known length: the token's line starts a few bytes before the head's cut.
    const seqBytes = Number((await runCommand('seq 1 400 | wc -c', options())).output.trim());
    const prefix = 'export GITHUB_TOKEN='.length;
    for (const into of [1, 4, 10, 25, 39]) {
      const command = `seq 1 400; echo "export GITHUB_TOKEN=${TOKEN}"; seq 1 100000`;
      // The head's window ends `into` characters into the token.
      const result = await runCommand(command, options((seqBytes + prefix + into) * 2));
      expect(result.droppedBytes).toBeGreaterThan(0);
      expectWholeOrAbsent(result.output, TOKEN);
      expect(result.output).not.toContain('ghp_');
    }
  });
});

function options(maxOutputBytes = 4096) {
  return { cwd: '/', signal: new AbortController().signal, maxOutputBytes, timeoutMs: 20_000 };
}

describe('LiveOutput', () => {
  it('holds at most its tail between ticks and reports the skipped lines once', () => {
    const sent: string[] = [];
    const live = new LiveOutput((text) => sent.push(text), 10, 60_000, 64);
    let lines = 0;
    for (let index = 0; index < 10_000; index++) {
      const chunk = Buffer.from(`line ${index}\n`);
      lines++;
      live.push(chunk, countLines(chunk));
      expect((live as unknown as { pendingBytes: number }).pendingBytes).toBeLessThan(64 + 16);
    }
    live.flush();
    const text = sent.join('');
    const skipped = Number(/… ([\d,]+) more lines/.exec(text)![1]!.replace(/,/g, ''));
    const shown = text.replace(/\n… [\d,]+ more lines? \([\d,]+ bytes\) not shown …\n/, '').split('\n').length - 1;
    expect(skipped + shown).toBe(lines);
  });
});

describe('OutputSigns', () => {
  it.each([
    ['No space left on device', 'tmp-full'],
    ['fork: retry: Resource temporarily unavailable', 'processes'],
    ['Cannot allocate memory', 'memory'],
    ['MemoryError', 'memory'],
  ])('finds "%s" split across two chunks at every point', (sign, kind) => {
    for (let cut = 1; cut < sign.length; cut++) {
      const signs = new OutputSigns();
      signs.push(Buffer.from(`${'x'.repeat(5000)}${sign.slice(0, cut)}`));
      signs.push(Buffer.from(`${sign.slice(cut)}${'y'.repeat(5000)}`));
      expect([...signs.seen]).toEqual([kind]);
    }
  });

  it('finds a sign in the middle of a large chunk and none in ordinary output', () => {
    const signs = new OutputSigns();
    signs.push(Buffer.from(`${'1\n'.repeat(100_000)}`));
    expect(signs.seen.size).toBe(0);
    signs.push(Buffer.from(`${'1\n'.repeat(50_000)}bash: fork: Cannot fork\n${'1\n'.repeat(50_000)}`));
    expect([...signs.seen]).toEqual(['processes']);
  });

  it('looks only for the signs it is asked for (with a cgroup: a full /tmp)', () => {
    const signs = new OutputSigns(['tmp-full']);
    signs.push(Buffer.from('bash: fork: Cannot fork\nCannot allocate memory\n'));
    expect(signs.seen.size).toBe(0);
    signs.push(Buffer.from(`${'1\n'.repeat(50_000)}cp: No space left on device\n`));
    expect([...signs.seen]).toEqual(['tmp-full']);
  });

  it('finds a sign spread over many tiny chunks', () => {
    const signs = new OutputSigns();
    for (const char of 'out of memory') signs.push(Buffer.from(char));
    expect([...signs.seen]).toEqual(['memory']);
  });
});
