import type { HttpResponseData } from './http-client.js';

/** html-to-text's options: what a page becomes for the model. */
function conversionOptions(baseUrl: string | undefined) {
  // Relative addresses resolved as a browser would (html-to-text's own baseUrl only prefixes `/…`);
  // one with a scheme (https:, mailto: — whose prefix html-to-text has already cut) stays as it is.
  const pathRewrite = (path: string, _metadata: unknown, element?: { attribs?: Record<string, string> }) => {
    if (baseUrl === undefined || /^[a-z][a-z\d+.-]*:/i.test(element?.attribs?.href ?? path)) return path;
    return URL.canParse(path, baseUrl) ? new URL(path, baseUrl).href : path;
  };
  return {
    wordwrap: false as const,
    // Deeper nesting than this is not text a person reads (and html-to-text walks it recursively).
    limits: { maxDepth: 256, ellipsis: '…' },
    selectors: [
      // Headings keep their case (the default shouts them).
      ...['h1', 'h2', 'h3', 'h4', 'h5', 'h6'].map((selector) => ({ selector, options: { uppercase: false } })),
      // Links stay: "the docs [https://…]", relative ones resolved against the page's address.
      { selector: 'a', options: { pathRewrite, hideLinkHrefIfSameAsText: true } },
      { selector: 'img', format: 'skip' },
      // Tables as aligned columns, not their cells run together.
      { selector: 'table', format: 'dataTable', options: { uppercaseHeaderCells: false, maxColumnWidth: 60 } },
      ...['script', 'style', 'noscript', 'svg', 'template', 'head', 'iframe', 'object'].map((selector) => ({
        selector,
        format: 'skip',
      })),
    ],
  };
}

/**
 * HTML as readable text through html-to-text (a maintained converter; docs/http.md compares it
 * with the others): blocks on their own lines, links kept with their address, tables in
 * columns, scripts and styles dropped. Loaded on the first HTML page, not when the tool loads.
 * The result is what the model would have read of the body: the output guard still withholds
 * secrets in it (a token in a link's address included) and the bounds still cut it.
 */
export async function htmlToText(html: string, baseUrl?: string): Promise<string> {
  const { convert } = await import('html-to-text');
  // No-break spaces read as spaces.
  return convert(html, conversionOptions(baseUrl)).replaceAll('\u00a0', ' ').replace(/^\n+/, '').trimEnd();
}

/** What the model reads: status line, kept headers, then the body as text. */
export async function formatResponseForModel(response: HttpResponseData): Promise<string> {
  const contentType = response.headers['content-type'] ?? '';
  let body: string;
  if (response.binary) body = `(binary body, ${response.bodyBytes.toLocaleString('en-US')} bytes, not shown)`;
  else if (/json/i.test(contentType) && !response.truncated) {
    try {
      body = JSON.stringify(JSON.parse(response.body), null, 2);
    } catch {
      body = response.body;
    }
  } else if (/html/i.test(contentType)) body = await htmlToText(response.body, response.url);
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
