/**
 * Output that would be noise to the model: NUL bytes, or many invalid UTF-8 sequences, in the
 * first 8 KiB. Shared by every tool that returns bytes (files, commands, HTTP bodies).
 */
export function looksBinary(sample: Uint8Array): boolean {
  const probe = Buffer.from(sample.buffer, sample.byteOffset, Math.min(sample.byteLength, 8192));
  if (probe.includes(0)) return true;
  const text = probe.toString('utf8');
  const replacements = text.split('\uFFFD').length - 1;
  return replacements > 8 && replacements / Math.max(1, text.length) > 0.05;
}
