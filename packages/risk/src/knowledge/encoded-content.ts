/**
 * A file that is a secret file encoded: hex (`xxd -p key > key.hex`), an `xxd` dump, or base64
 * of the whole file (`base64 .env > env.b64`). The red team read such files with `cat` and
 * `rev`: the content test saw only letters and digits. Decoded here, bounded, for the content
 * test to judge what the bytes say. Undefined when the text is not one of these encodings.
 */
const MAX_ENCODED = 4 * 1024 * 1024;

export function decodedContent(text: string): string | undefined {
  if (text.length < 64 || text.length > MAX_ENCODED) return undefined;
  // Most text is not an encoding: a look at its start decides cheaply (this runs over every file).
  if (!/^[0-9a-f]{8}: /.test(text) && !/^[\sA-Za-z0-9+/=_-]*$/.test(text.slice(0, 4096))) return undefined;
  // An xxd dump: `00000000: 2d2d 2d2d 2d42 4547  -----BEG`.
  if (/^[0-9a-f]{8}: [0-9a-f]{2,4}(?: [0-9a-f]{2,4})*/m.test(text)) {
    const lines = text.split('\n').filter((line) => line.length > 0);
    if (lines.every((line) => /^[0-9a-f]{8}: /.test(line))) {
      const hex = lines.map((line) => line.slice(10, 10 + 40).replace(/[^0-9a-f]/gi, '')).join('');
      return printable(Buffer.from(hex, 'hex'));
    }
  }
  const compact = text.replace(/\s+/g, '');
  if (compact.length < 64) return undefined;
  if (/^[0-9a-fA-F]+$/.test(compact) && compact.length % 2 === 0) return printable(Buffer.from(compact, 'hex'));
  if (/^[A-Za-z0-9+/_-]+={0,2}$/.test(compact) && /[A-Z]/.test(compact) && /[a-z]/.test(compact))
    return printable(Buffer.from(compact, 'base64'));
  return undefined;
}

/** The bytes as text when they are text (a key, an env file), not random binary. */
function printable(bytes: Buffer): string | undefined {
  if (bytes.length === 0) return undefined;
  let text = 0;
  for (const byte of bytes) if (byte === 9 || byte === 10 || byte === 13 || (byte >= 32 && byte < 127)) text++;
  return text / bytes.length >= 0.9 ? bytes.toString('utf8') : undefined;
}
