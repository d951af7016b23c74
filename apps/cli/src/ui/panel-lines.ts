import type { Decision, OperationDescription } from '@riskgate/risk';
import stringWidth from 'string-width';
import { INVISIBLE, INVISIBLE_ALL, escapeCode, partOfEmoji } from '../terminal-text.js';
import { lazyGraphemeSegmenter } from './graphemes.js';
import { highlightShell, highlightSql, type Token } from './highlight.js';

/** A piece of a screen line with its style; `visible` marks text riskgate made visible (a control character). */
export interface Segment {
  readonly text: string;
  readonly style?:
    | 'keyword'
    | 'string'
    | 'number'
    | 'command'
    | 'option'
    | 'operator'
    | 'added'
    | 'removed'
    | 'hunk'
    | 'dim'
    | 'bold'
    | 'detail'
    | 'escaped'
    | 'warn'
    | 'danger';
}
export type ScreenLine = readonly Segment[];

const TAB_WIDTH = 4;

/** Splits one segment so every invisible character becomes its own visible, marked segment. */
function revealSegment(segment: Segment): Segment[] {
  const text = segment.text.replaceAll('\t', ' '.repeat(TAB_WIDTH));
  if (!INVISIBLE.test(text)) return [{ ...segment, text }];
  const out: Segment[] = [];
  let last = 0;
  for (const match of text.matchAll(INVISIBLE_ALL)) {
    if (partOfEmoji(text, match.index)) continue;
    if (match.index > last) out.push({ ...segment, text: text.slice(last, match.index) });
    out.push({ text: escapeCode(match[0]), style: 'escaped' });
    last = match.index + match[0].length;
  }
  if (last < text.length) out.push({ ...segment, text: text.slice(last) });
  return out;
}

/** True when a text holds a character the panel had to make visible. */
export function hasInvisible(text: string): boolean {
  return INVISIBLE.test(text.replaceAll('\n', ''));
}

const segmenter = lazyGraphemeSegmenter();
const PRINTABLE_ASCII = /^[\x20-\x7E]*$/;

/**
 * Wraps one logical line to `width` terminal columns (CJK and emoji count double) at spaces, as
 * a reader expects: a word is split only when it is longer than the whole width.
 */
export function wrapLine(segments: readonly Segment[], width: number): ScreenLine[] {
  // Most lines are short printable ASCII: one column per character, nothing to reveal.
  if (
    segments.every((segment) => PRINTABLE_ASCII.test(segment.text)) &&
    segments.reduce((sum, segment) => sum + segment.text.length, 0) <= width
  )
    return [segments];
  const cells: Cell[] = [];
  for (const segment of segments.flatMap(revealSegment))
    for (const { segment: grapheme } of segmenter.segment(segment.text))
      cells.push({ text: grapheme, width: stringWidth(grapheme), from: segment });
  return breakPoints(cells, width).map(([start, end]) => joinCells(cells.slice(start, end)));
}

/** One grapheme of a line, with its width and the segment (style) it came from. */
interface Cell {
  readonly text: string;
  readonly width: number;
  readonly from: Segment;
}

/** [start, end) of each screen line: greedy, breaking after the last space that fits, else mid-word. */
function breakPoints(cells: readonly Cell[], width: number): [number, number][] {
  const lines: [number, number][] = [];
  let start = 0;
  let used = 0;
  let lastSpace = -1;
  for (let index = 0; index < cells.length; index++) {
    const cell = cells[index]!;
    while (used + cell.width > width && index > start) {
      // A space to break after, unless the line would hold only spaces (an indented long word).
      const spaced = lastSpace >= start && cells.slice(start, lastSpace).some((c) => c.text !== ' ');
      const breakAt = spaced ? lastSpace + 1 : index;
      lines.push([start, breakAt]);
      start = breakAt;
      used = cells.slice(start, index).reduce((sum, c) => sum + c.width, 0);
      lastSpace = -1;
    }
    used += cell.width;
    if (cell.text === ' ') lastSpace = index;
  }
  lines.push([start, cells.length]);
  return lines;
}

/** Neighbouring graphemes of one segment joined back into one styled segment. */
function joinCells(cells: readonly Cell[]): ScreenLine {
  const out: Segment[] = [];
  let from: Segment | undefined;
  let text = '';
  for (const cell of cells) {
    if (cell.from !== from) {
      if (from !== undefined && text !== '') out.push({ ...from, text });
      from = cell.from;
      text = '';
    }
    text += cell.text;
  }
  if (from !== undefined && text !== '') out.push({ ...from, text });
  return out;
}

/** Token lists split at newlines: one segment list per source line. */
function splitTokens(tokens: readonly Token[]): Segment[][] {
  const lines: Segment[][] = [[]];
  for (const token of tokens) {
    const parts = token.text.split('\n');
    parts.forEach((part, index) => {
      if (index > 0) lines.push([]);
      if (part !== '') lines.at(-1)!.push(token.kind === 'plain' ? { text: part } : { text: part, style: token.kind });
    });
  }
  return lines;
}

function diffLine(line: string): Segment[] {
  if (line.startsWith('+') && !line.startsWith('+++')) return [{ text: line, style: 'added' }];
  if (line.startsWith('-') && !line.startsWith('---')) return [{ text: line, style: 'removed' }];
  if (line.startsWith('@@')) return [{ text: line, style: 'hunk' }];
  return [{ text: line }];
}

/** The operation itself, one segment list per logical line, before wrapping. */
function operationLines(description: OperationDescription): Segment[][] {
  switch (description.kind) {
    case 'sql':
      return splitTokens(highlightSql(description.sql));
    case 'command':
      return [...splitTokens(highlightShell(description.command)), [{ text: `in ${description.cwd}`, style: 'dim' }]];
    case 'file':
      return [
        [{ text: `${description.operation} ${description.path}`, style: 'bold' }],
        ...(description.diff === undefined ? [] : description.diff.split('\n').map(diffLine)),
      ];
    case 'http':
      return [
        [{ text: description.requestLine, style: 'bold' }],
        ...description.headers.map((header): Segment[] => [{ text: header, style: 'dim' }]),
        ...(description.bodyPreview === undefined
          ? []
          : description.bodyPreview.split('\n').map((line): Segment[] => [{ text: line }])),
      ];
    case 'generic':
      return description.summary.split('\n').map((line) => [{ text: line }]);
    default: {
      const unreachable: never = description;
      return [[{ text: String(unreachable) }]];
    }
  }
}

export interface PanelBody {
  /** What the panel shows, wrapped to its width: every line of it, nothing cut. */
  readonly lines: readonly ScreenLine[];
  /** The same, unwrapped and plain, for $PAGER. */
  readonly text: string;
  /** Lines (logical) of the operation alone, for "N lines" notices. */
  readonly operationLineCount: number;
}

/**
 * Everything the confirmation panel asks about, as screen lines: the operation, what it would
 * do (the assessor's effects: "! deletes …" for a write or worse, "· reads …" for a read), the
 * other reasons, and the code's previews (details). The panel scrolls through these; it never
 * cuts.
 */
export function panelBody(
  description: OperationDescription,
  decision: Pick<Decision, 'notes' | 'findings' | 'effects'>,
  width: number,
  undo?: UndoOutlook,
): PanelBody {
  const operation = operationLines(description);
  const effects = decision.effects.map((effect): Segment[] =>
    effect.verdict === 'read'
      ? [{ text: `· ${effect.text}` }]
      : [{ text: `! ${effect.text}`, style: effect.level === 'high' ? 'danger' : 'warn' }],
  );
  // An effect that is also a reason is said once.
  const reasons = [...decision.notes, ...decision.findings]
    .filter((reason) => !decision.effects.some((effect) => effect.text === reason))
    .map((reason): Segment[] => [{ text: `- ${reason}` }]);
  const logical: Segment[][] = [
    ...operation,
    ...effects,
    ...undoLines(undo),
    ...reasons,
    ...description.details.map((detail): Segment[] => [{ text: detail, style: 'detail' }]),
  ];
  const columns = Math.max(10, width);
  return {
    lines: logical.flatMap((line) => (line.length === 0 ? [[]] : wrapLine(line, columns))),
    text: logical
      .map((line) =>
        line
          .map((segment) =>
            revealSegment(segment)
              .map((part) => part.text)
              .join(''),
          )
          .join(''),
      )
      .join('\n'),
    operationLineCount: operation.length,
  };
}

/** What `/undo` can and cannot take back of the call (a checkpoint is kept before it runs). */
export interface UndoOutlook {
  readonly paths: readonly string[];
  readonly cannot: readonly string[];
}

/** "/undo can put back: …", and a "cannot be undone: …" line for each thing it cannot. */
export function undoLines(undo: UndoOutlook | undefined): Segment[][] {
  if (undo === undefined) return [];
  const kept: Segment[][] =
    undo.paths.length === 0
      ? []
      : [
          [
            {
              text: `/undo can put back${undo.cannot.length === 0 ? '' : ' only'}: ${undo.paths.join(', ')}`,
              style: 'dim',
            },
          ],
        ];
  return [...kept, ...undo.cannot.map((reason): Segment[] => [{ text: `cannot be undone: ${reason}`, style: 'warn' }])];
}

/** A text with every character a terminal would not print as itself shown as its code (one line). */
export function revealText(text: string): string {
  return revealSegment({ text })
    .map((part) => part.text)
    .join('');
}
