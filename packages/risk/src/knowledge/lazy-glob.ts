import picomatch from 'picomatch';

/**
 * A row's glob compiled the first time a path could match it. Why: the first judged call
 * compiled every path row with picomatch (~360 after brace expansion) and ran each regex once or
 * twice, which V8 then compiled again (~30 ms of the first call, issue 20); a path such as
 * `/tmp/work/true` holds the literal text of almost no row.
 *
 * The check before the matcher is a necessary condition, never a verdict: a glob segment
 * without wildcards matches only an equal path segment, and one with wildcards only a segment
 * that begins with the text before its first wildcard and ends with the text after its last.
 * A path that fails it cannot match; every other path goes to the same picomatch matcher as
 * before, so the verdicts are the same (lazy-glob.test.ts compares them).
 */

/** Characters with a meaning in a picomatch glob; a segment without any is matched literally. */
const SPECIAL = /[*?[\]{}()!+@\\|]/;

export interface LiteralParts {
  /** Segments without wildcards: each must be a whole segment of the path. */
  readonly segments: readonly string[];
  /** Text that must occur in the path: the fixed start and end of segments with wildcards. */
  readonly fragments: readonly string[];
}

/** What any path a glob matches must contain (`**` and wildcards contribute what they fix). */
export function literalParts(glob: string): LiteralParts {
  const segments: string[] = [];
  const fragments: string[] = [];
  for (const segment of glob.split('/')) {
    if (segment === '' || segment === '**') continue;
    const first = segment.search(SPECIAL);
    if (first === -1) {
      segments.push(segment);
      continue;
    }
    let last = segment.length - 1;
    while (last >= 0 && !SPECIAL.test(segment[last]!)) last--;
    for (const fragment of [segment.slice(0, first), segment.slice(last + 1)])
      if (fragment !== '') fragments.push(fragment);
  }
  return { segments, fragments };
}

/** Whether `segment` is one of the `/`-separated segments of `path` (no allocation: tree walks test every entry). */
export function hasSegment(path: string, segment: string): boolean {
  for (let from = 0; ; ) {
    const at = path.indexOf(segment, from);
    if (at === -1) return false;
    const end = at + segment.length;
    if ((at === 0 || path.charCodeAt(at - 1) === SLASH) && (end === path.length || path.charCodeAt(end) === SLASH))
      return true;
    from = at + 1;
  }
}

const SLASH = 47;

export function mayMatch(path: string, parts: LiteralParts): boolean {
  for (const segment of parts.segments) if (!hasSegment(path, segment)) return false;
  for (const fragment of parts.fragments) if (!path.includes(fragment)) return false;
  return true;
}

/**
 * `picomatch(globs, options)` for paths, compiled on the first path that holds the literal text
 * of one of `globs` (each of which is checked alone: a path matches the list when it matches one).
 */
export function lazyMatcher(globs: readonly string[], options: picomatch.PicomatchOptions): (path: string) => boolean {
  const parts = globs.map(literalParts);
  let matcher: ((path: string) => boolean) | undefined;
  return (path) => {
    // Once compiled, the matcher alone: as fast as the eager one for the walks that call it often.
    if (matcher !== undefined) return matcher(path);
    for (const part of parts) {
      if (!mayMatch(path, part)) continue;
      matcher = picomatch([...globs], options);
      return matcher(path);
    }
    return false;
  };
}
