import { defineConfig } from 'vitest/config';
import { markdownAsText } from '../../packages/prompt/markdown-plugin.js';

export default defineConfig({ plugins: [markdownAsText()], test: { include: ['test/**/*.test.ts', 'test/**/*.test.tsx'], testTimeout: 30_000 } });
