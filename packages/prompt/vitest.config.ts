import { defineConfig } from 'vitest/config';
import { markdownAsText } from './markdown-plugin.js';

export default defineConfig({ plugins: [markdownAsText()], test: { include: ['test/**/*.test.ts'] } });
