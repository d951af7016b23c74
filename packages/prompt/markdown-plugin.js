// Prompt templates are Markdown files imported as strings: esbuild's text loader does this in
// the CLI bundle, and this plugin does the same for vitest.
import { readFileSync } from 'node:fs';

export function markdownAsText() {
  return {
    name: 'riskgate-markdown-as-text',
    enforce: 'pre',
    load(id) {
      if (!id.endsWith('.md')) return null;
      return `export default ${JSON.stringify(readFileSync(id, 'utf8'))};`;
    },
  };
}
