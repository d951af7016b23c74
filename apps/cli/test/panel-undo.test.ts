import { describe, expect, it } from 'vitest';
import { panelBody } from '../src/ui/panel-lines.js';

// The panel's word on /undo: what it can put back, and a "cannot be undone" line for the rest.
const decision = {
  notes: [],
  findings: [],
  effects: [{ text: 'deletes a.txt', verdict: 'side-effect' as const, level: 'high' as const }],
};
const description = { kind: 'command' as const, command: 'rm a.txt; python3 x.py', cwd: '/w', details: [] };
const text = (undo?: { paths: string[]; cannot: string[] }) => panelBody(description, decision, 100, undo).text;

describe('the panel on /undo', () => {
  it.each<[string, { paths: string[]; cannot: string[] } | undefined, readonly string[], readonly string[]]>([
    ['says nothing without checkpoints', undefined, [], ['/undo', 'cannot be undone']],
    [
      'names what /undo can put back',
      { paths: ['a.txt'], cannot: [] },
      ['/undo can put back: a.txt'],
      ['cannot be undone'],
    ],
    [
      'says "only" and what cannot be undone when part of it is not kept',
      { paths: ['a.txt'], cannot: ['python3 runs x.py (what it changes is not known)'] },
      ['/undo can put back only: a.txt', 'cannot be undone: python3 runs x.py (what it changes is not known)'],
      [],
    ],
    [
      'says only what cannot be undone when nothing is kept',
      { paths: [], cannot: ['sends POST to https://example.com:443'] },
      ['cannot be undone: sends POST to https://example.com:443'],
      ['/undo can'],
    ],
  ])('%s', (_name, undo, present, absent) => {
    const body = text(undo);
    for (const line of present) expect(body).toContain(line);
    for (const line of absent) expect(body).not.toContain(line);
    // After the effects, before anything else: the operation's own lines stay first.
    if (present.length > 0) expect(body.indexOf('! deletes a.txt')).toBeLessThan(body.indexOf(present[0]!));
  });
});
