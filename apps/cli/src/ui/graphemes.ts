/**
 * Text measured without ICU until it is needed. The first `Intl.Segmenter` of a process loads
 * ICU's break data (≈ 20 ms), and string-width's emoji test compiles `\p{RGI_Emoji}` on its
 * first non-ASCII text (≈ 25 ms): together a quarter of the time to the TUI's first frame, which
 * holds only ASCII and a few marks (› · … ≈). Text made of the characters below is measured and
 * segmented here, exactly as ICU and string-width would (test/graphemes.test.ts compares every
 * one of them, and random mixes, with the real libraries); anything else goes to them.
 *
 * The bundle (build.mjs) hands Ink's dependencies the same: their module-level segmenters become
 * `lazyGraphemeSegmenter`, and string-width answers simple text through `simpleTextWidth` first.
 */

/**
 * One column each, each its own grapheme in any sequence: Latin-1 and Latin Extended letters,
 * Greek and Cyrillic letters, general punctuation, currency signs, arrows, mathematical
 * operators, box drawing, blocks and geometric shapes — without combining marks, format and
 * control characters, and without any pictographic character (an emoji presentation, or one a
 * variation selector could turn into one, such as © ↔ ▶).
 */
const NARROW =
  '\\u00A0-\\u00A8\\u00AA-\\u00AC\\u00AF-\\u02FF\\u0391-\\u03A1\\u03A3-\\u03C9\\u0400-\\u0482' +
  '\\u2010-\\u2027\\u2030-\\u203B\\u203D-\\u2048\\u204A-\\u205E\\u20A0-\\u20C0' +
  '\\u2190-\\u2193\\u219A-\\u21A8\\u21AB-\\u21FF\\u2200-\\u22FF\\u2500-\\u259F' +
  '\\u25A0-\\u25A9\\u25AC-\\u25B5\\u25B7-\\u25BF\\u25C1-\\u25FA';

/** Printable ASCII and the narrow characters: as many columns as UTF-16 units. */
const SIMPLE_TEXT = new RegExp(`^[\\u0020-\\u007E${NARROW}]*$`);

/** Also tab, line feed and escape: controls are graphemes of their own (carriage return is not: CR LF is one). */
const SIMPLE_GRAPHEMES = new RegExp(`^[\\t\\n\\u001B\\u0020-\\u007E${NARROW}]*$`);

/** The width of a simple text (its length), or undefined when it needs string-width. */
export function simpleTextWidth(text: string): number | undefined {
  return SIMPLE_TEXT.test(text) ? text.length : undefined;
}

interface LazySegmenter {
  segment(text: string): Intl.Segments;
  resolvedOptions(): Intl.ResolvedSegmenterOptions;
}

/**
 * An `Intl.Segmenter` created on first need: grapheme segmentation of simple text is answered
 * unit by unit, everything else (and word or sentence granularity) by the real one.
 */
export function lazyGraphemeSegmenter(locales?: string | string[], options?: Intl.SegmenterOptions): LazySegmenter {
  let real: Intl.Segmenter | undefined;
  const segmenter = () => {
    real ??= new Intl.Segmenter(locales, options);
    return real;
  };
  const graphemes = options?.granularity === undefined || options.granularity === 'grapheme';
  return {
    segment: (text) => (graphemes && SIMPLE_GRAPHEMES.test(text) ? unitSegments(text) : segmenter().segment(text)),
    resolvedOptions: () => segmenter().resolvedOptions(),
  };
}

/** What `Intl.Segmenter#segment` gives for a text whose every UTF-16 unit is a grapheme. */
function unitSegments(input: string): Intl.Segments {
  const at = (index: number): Intl.SegmentData => ({ segment: input[index]!, index, input });
  return {
    containing: (position = 0) => {
      const index = Math.trunc(Number(position) || 0);
      return index >= 0 && index < input.length ? at(index) : undefined;
    },
    *[Symbol.iterator]() {
      for (let index = 0; index < input.length; index++) yield at(index);
    },
  } as Intl.Segments;
}
