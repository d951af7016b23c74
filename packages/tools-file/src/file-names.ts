/**
 * A file name as text. Linux names are bytes, not necessarily UTF-8: decoding one with
 * replacement characters gives a name that names no file (one such name made `list` fail with
 * "`.` does not exist"). A name that is not valid UTF-8 is shown with each invalid byte as
 * `\xNN` — readable, and never the same as a replacement character.
 */
export function fileNameText(bytes: Buffer): string {
  const text = bytes.toString('utf8');
  if (Buffer.from(text, 'utf8').equals(bytes)) return text;
  let out = '';
  let index = 0;
  while (index < bytes.length) {
    const first = bytes[index]!;
    const length = sequenceLength(first);
    if (length > 0) {
      const piece = bytes.subarray(index, index + length);
      const decoded = piece.toString('utf8');
      // Node decodes an overlong form, a surrogate or a cut sequence as U+FFFD: not equal back.
      if (piece.length === length && Buffer.from(decoded, 'utf8').equals(piece)) {
        out += decoded;
        index += length;
        continue;
      }
    }
    out += `\\x${first.toString(16).padStart(2, '0')}`;
    index += 1;
  }
  return out;
}

/** The length a UTF-8 sequence starting with this byte would have; 0 for a byte no sequence starts with. */
function sequenceLength(byte: number): number {
  if (byte < 0x80) return 1;
  if (byte >= 0xc2 && byte <= 0xdf) return 2;
  if (byte >= 0xe0 && byte <= 0xef) return 3;
  if (byte >= 0xf0 && byte <= 0xf4) return 4;
  return 0;
}
