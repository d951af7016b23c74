import { fileURLToPath } from 'node:url';

/**
 * Where the built-in templates are: `templates/` beside `src/` and `dist/`, read at run time so
 * the package loads under plain Node (no `.md` imports). The CLI bundle replaces this module
 * with one pointing at its own copy (apps/cli/build.mjs).
 */
export const TEMPLATES_DIRECTORY: string = fileURLToPath(new URL('../templates/', import.meta.url));
