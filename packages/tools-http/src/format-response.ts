import type { HttpResponseData } from './http-client.js';

const ENTITIES: Record<string, string> = {
  amp: '&',
  lt: '<',
  gt: '>',
  quot: '"',
  apos: "'",
  nbsp: ' ',
  mdash: '—',
  ndash: '–',
  hellip: '…',
  copy: '©',
};

/** HTML reduced to its readable text: scripts, styles and tags out, blocks on their own lines. */
export function htmlToText(html: string): string {
  return html
    .replace(/<!--[\s\S]*?-->/g, '')
    .replace(/<(script|style|noscript|svg|template|head)\b[\s\S]*?<\/\1\s*>/gi, '')
    .replace(/<br\s*\/?>/gi, '\n')
    .replace(/<\/(p|div|li|tr|h[1-6]|section|article|header|footer|pre|blockquote|table|ul|ol)\s*>/gi, '\n')
    .replace(/<li\b[^>]*>/gi, '- ')
    .replace(/<[^>]+>/g, '')
    .replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (whole, entity: string) => {
      if (entity.startsWith('#x') || entity.startsWith('#X'))
        return String.fromCodePoint(Number.parseInt(entity.slice(2), 16));
      if (entity.startsWith('#')) return String.fromCodePoint(Number.parseInt(entity.slice(1), 10));
      return ENTITIES[entity.toLowerCase()] ?? whole;
    })
    .replace(/[ \t\f\v\r]+/g, ' ')
    .replace(/ *\n */g, '\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

/** What the model reads: status line, kept headers, then the body as text. */
export function formatResponseForModel(response: HttpResponseData): string {
  const contentType = response.headers['content-type'] ?? '';
  let body: string;
  if (response.binary) body = `(binary body, ${response.bodyBytes.toLocaleString('en-US')} bytes, not shown)`;
  else if (/json/i.test(contentType) && !response.truncated) {
    try {
      body = JSON.stringify(JSON.parse(response.body), null, 2);
    } catch {
      body = response.body;
    }
  } else if (/html/i.test(contentType)) body = htmlToText(response.body);
  else body = response.body;
  const lines = [`HTTP ${response.status} ${response.statusText} (${Math.round(response.elapsedMs)} ms)`.trimEnd()];
  if (response.redirects.length > 0) lines.push(`followed redirects: ${response.redirects.join(' → ')}`);
  if (response.redirectStopped !== undefined) {
    lines.push(
      `redirected to ${response.redirectStopped.to}, not followed: ${response.redirectStopped.reason}. To go there, make a new http_request call to that URL; it is judged (and asked about) on its own.`,
    );
  }
  for (const [name, value] of Object.entries(response.headers)) lines.push(`${name}: ${value}`);
  lines.push('', body === '' ? '(empty body)' : body);
  if (response.truncated) lines.push(`[body cut at ${Buffer.byteLength(response.body).toLocaleString('en-US')} bytes]`);
  return lines.join('\n');
}
