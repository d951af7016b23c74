import { describe, expect, it } from 'vitest';
import { countLines, HeadTail, LiveOutput } from '../src/output-capture.js';
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
    expect(head.length).toBe(100);
    expect(tail.length).toBe(100);
    expect(dropped).toBe(all.length - 200);
    expect(droppedLines).toBe(naive(Buffer.from(all)) - naive(head) - naive(tail));
  });
});

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
