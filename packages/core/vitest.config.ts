import { defineConfig } from 'vitest/config';
import { markdownAsText } from '../prompt/markdown-plugin.js';

export default defineConfig({ plugins: [markdownAsText()], test: { include: ['test/**/*.test.ts'], testTimeout: 30_000 } });
