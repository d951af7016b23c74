import { randomBytes } from 'node:crypto';
import { closeSync, constants, fsyncSync, openSync, writeSync } from 'node:fs';
import { chmod, lstat, mkdir, open, readdir, readFile, rename, rm, stat } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import {
  notAssessed,
  defineTool,
  type Effect,
  type EffectReport,
  type ExecuteContext,
  judgeEffects,
  looksBinary,
  type OperationDescription,
  type PlannedReport,
  report,
  type ToolResult,
  toolFailure,
} from '@riskgate/risk';
import { createTwoFilesPatch } from 'diff';
import { z } from 'zod/v4';
import { fileNameText } from './file-names.js';
import { type ResolvedPath, resolvePath } from './paths.js';

export const FILE_TOOL_NAME = 'file_operations';

export const FILE_OPERATIONS = ['read', 'list', 'exists', 'write'] as const;

export const fileOperationsParameters = z
  .object({
    operation: z
      .enum(FILE_OPERATIONS)
      .describe('read a file, list a directory, check that a path exists, or write a file'),
    path: z.string().min(1).max(4096).describe('Path relative to the workspace, absolute, or starting with ~'),
    content: z.string().max(10_000_000).optional().describe('write: the whole new content of the file'),
    offset: z.number().int().min(1).optional().describe('read: first line to return (1-based)'),
    limit: z.number().int().min(1).max(100_000).optional().describe('read: number of lines to return'),
    line_numbers: z.boolean().optional().describe('read: prefix each line with its number'),
    recursive: z.boolean().optional().describe('list: descend into subdirectories'),
    depth: z.number().int().min(1).max(10).optional().describe('list: how deep to descend when recursive (default 3)'),
    include_ignored: z.boolean().optional().describe('list: include .git and node_modules'),
    create_parents: z.boolean().optional().describe('write: create missing parent directories'),
  })
  .superRefine((args, context) => {
    if (args.operation === 'write' && args.content === undefined) {
      context.addIssue({ code: 'custom', path: ['content'], message: 'write needs content (the whole new file)' });
    }
  });

export type FileOperationsArgs = z.output<typeof fileOperationsParameters>;

export interface FileToolOptions {
  /** Bytes a read returns at most (the model sees a note past it). Default 256 KiB. */
  readonly maxReadBytes?: number;
  /** Entries a list returns at most. Default 1,000. */
  readonly maxEntries?: number;
}

export interface ListEntry {
  readonly path: string;
  readonly type: 'file' | 'directory' | 'symlink' | 'other';
  readonly size: number | null;
}

export type FileData =
  | {
      readonly operation: 'read';
      readonly path: string;
      readonly text: string;
      readonly totalLines: number;
      readonly firstLine: number;
      readonly truncated: boolean;
      readonly binary: boolean;
      readonly bytes: number;
    }
  | {
      readonly operation: 'list';
      readonly path: string;
      readonly entries: readonly ListEntry[];
      readonly truncated: boolean;
    }
  | {
      readonly operation: 'exists';
      readonly path: string;
      readonly exists: boolean;
      readonly type: ListEntry['type'] | null;
    }
  | { readonly operation: 'write'; readonly path: string; readonly created: boolean; readonly bytes: number };

/** What the assessor worked out that the panel and the run need. */
export interface FilePlan {
  /** The path as resolved when the call was judged: the panel shows it, the run checks it still holds. */
  readonly path: ResolvedPath;
  /** What the judge weighed: a whitelisted read is judged again against these just before it runs. */
  readonly effects: readonly Effect[];
}

const SKIPPED = new Set(['.git', 'node_modules']);

export function createFileOperationsTool(options: FileToolOptions = {}) {
  const limits = { maxReadBytes: options.maxReadBytes ?? 256 * 1024, maxEntries: options.maxEntries ?? 1_000 };
  return defineTool({
    name: FILE_TOOL_NAME,
    description:
      'Read a file, list a directory, check whether a path exists, or write a whole file. Reads, lists and existence checks run at once (except secrets such as .env files and private keys); writes are shown to the user as a diff and need their confirmation.',
    noun: 'file operation',
    // Writes, overwrites and deletes files; appends make it not idempotent. Local paths only.
    hints: { title: 'Read and write files', readOnly: false, destructive: true, idempotent: false, openWorld: false },
    title: ({ operation, path }) => `${operation} ${path}`,
    parameters: fileOperationsParameters,
    ruleStyle: 'path',
    assess: (args, context): PlannedReport<FilePlan> => {
      const path = resolvePath(args.path, context.cwd, context.home);
      const { effects, subjects } = fileEffects(args, path);
      return { effects, subjects, plan: { path, effects } };
    },
    describe: async (args, _context, { path }): Promise<OperationDescription> => {
      if (args.operation !== 'write')
        return { kind: 'file', operation: args.operation, path: path.display, details: [] };
      return {
        kind: 'file',
        operation: 'write',
        path: path.display,
        diff: await writeDiff(path, args.content ?? ''),
        details: [],
      };
    },
    // What runs is what was assessed: no plan, nothing runs.
    execute: async (args, context, plan) =>
      plan === undefined
        ? notAssessed(FILE_TOOL_NAME, 'file-not-assessed')
        : executeFileOperation(args, context, plan, limits),
  });
}

/** What the call would do; `@riskgate/risk` judges it against the one knowledge base. */
function fileEffects(args: FileOperationsArgs, path: ResolvedPath): EffectReport {
  const subjects = [`${args.operation} ${path.display}`];
  const escapes = path.escapesThroughSymlink
    ? { note: `${args.path} is a symlink to ${path.real}, outside the workspace` }
    : {};
  switch (args.operation) {
    case 'exists':
      // Only says whether the path is there: nothing is read.
      return report([], subjects);
    case 'read':
      return report([{ kind: 'read-path', path: path.lexical, ...escapes }], subjects);
    case 'list': {
      const recursive = args.recursive === true ? { recursive: true } : {};
      return report([{ kind: 'list-path', path: path.lexical, ...recursive, ...escapes }], subjects);
    }
    case 'write': {
      const refused = path.escapesThroughSymlink
        ? {
            note: `${args.path} is a symlink to ${path.real}, outside the workspace: the write will be refused`,
            severity: 'high' as const,
          }
        : {};
      return report([{ kind: 'write-path', path: path.lexical, ...refused }], subjects);
    }
  }
}

async function executeFileOperation(
  args: FileOperationsArgs,
  context: ExecuteContext,
  plan: FilePlan,
  limits: { readonly maxReadBytes: number; readonly maxEntries: number },
): Promise<ToolResult<FileData>> {
  // The path is resolved again only to see that it still leads where it did: a symlink swapped
  // in since the assessment would make the call touch another file than the one the judge
  // cleared or the panel's diff showed.
  const path = resolvePath(args.path, context.cwd, context.home);
  if (path.real !== plan.path.real) {
    return toolFailure(
      'file-changed-since-assessed',
      `refused: ${args.path} now leads to ${path.real}, not to ${plan.path.real} as when it was checked; ask again`,
    );
  }
  // Defence in depth: a read that runs because it is whitelisted is judged again now (the plan's
  // effects, not a new assessment), so a file that became a secret since is refused.
  if (context.readOnly) {
    const again = judgeEffects(plan.effects, context);
    if (!again.whitelisted) return toolFailure('file-changed-since-assessed', `refused: ${again.reasons.join('; ')}`);
  }
  try {
    switch (args.operation) {
      case 'exists':
        return await existsOperation(path);
      case 'read':
        return await readOperation(path, args, limits.maxReadBytes);
      case 'list':
        return await listOperation(path, args, limits.maxEntries);
      case 'write':
        return await writeOperation(path, args.content ?? '', args.create_parents === true);
    }
  } catch (error) {
    return fileFailure(error, path);
  }
}

async function writeDiff(path: ResolvedPath, content: string): Promise<string> {
  const lines = content === '' ? 0 : content.split('\n').length - (content.endsWith('\n') ? 1 : 0);
  let before: string;
  try {
    before = await readFile(path.real, 'utf8');
  } catch {
    return `new file, ${lines} ${lines === 1 ? 'line' : 'lines'}\n${createTwoFilesPatch('/dev/null', path.display, '', content, undefined, undefined, { context: 3 })}`;
  }
  if (before === content) return 'no change: the file already has this content';
  return createTwoFilesPatch(path.display, path.display, before, content, undefined, undefined, { context: 3 });
}

function typeOf(stats: { isFile(): boolean; isDirectory(): boolean; isSymbolicLink(): boolean }): ListEntry['type'] {
  if (stats.isSymbolicLink()) return 'symlink';
  if (stats.isFile()) return 'file';
  if (stats.isDirectory()) return 'directory';
  return 'other';
}

async function existsOperation(path: ResolvedPath): Promise<ToolResult<FileData>> {
  try {
    const stats = await stat(path.real);
    const data = { operation: 'exists', path: path.display, exists: true, type: typeOf(stats) } as const;
    return { type: 'tool-success', forModel: `${path.display} exists (${data.type})`, data };
  } catch {
    return {
      type: 'tool-success',
      forModel: `${path.display} does not exist`,
      data: { operation: 'exists', path: path.display, exists: false, type: null },
    };
  }
}

/** Why a path that is not a regular file is not read: opening or reading it could block or act. */
function notRegular(stats: {
  isFIFO(): boolean;
  isSocket(): boolean;
  isCharacterDevice(): boolean;
  isBlockDevice(): boolean;
}): string | undefined {
  if (stats.isFIFO()) return 'a named pipe: reading it waits for a writer';
  if (stats.isSocket()) return 'a socket, not a file';
  if (stats.isCharacterDevice()) return 'a device: reading it may never end';
  if (stats.isBlockDevice()) return 'a raw disk';
  return undefined;
}

async function readOperation(
  path: ResolvedPath,
  args: FileOperationsArgs,
  maxBytes: number,
): Promise<ToolResult<FileData>> {
  const stats = await stat(path.real);
  if (stats.isDirectory()) return toolFailure('file-is-directory', `${path.display} is a directory; use list`);
  // Special files are refused before they are opened: opening a watchdog arms it, and a read
  // of a pipe or /dev/zero never ends, whatever let the call run.
  const special = notRegular(stats);
  if (special !== undefined) return toolFailure('file-not-regular', `${path.display} is ${special}; not read`);
  // O_NONBLOCK: if the file was swapped for a pipe since the stat, the open does not wait for a
  // writer, and the descriptor's own stat below refuses it.
  const handle = await open(path.real, constants.O_RDONLY | constants.O_NONBLOCK);
  let buffer: Buffer;
  try {
    const opened = await handle.stat();
    const swapped = opened.isFile() ? undefined : (notRegular(opened) ?? 'not a regular file');
    if (swapped !== undefined) return toolFailure('file-not-regular', `${path.display} is ${swapped}; not read`);
    // Read past the cap only as far as needed to count what was left out.
    // Kernel files (/proc/cpuinfo) say size 0 and still have content.
    const wanted = stats.size === 0 ? maxBytes + 1 : Math.min(stats.size, maxBytes + 1);
    buffer = Buffer.alloc(wanted);
    const { bytesRead } = await handle.read(buffer, 0, wanted, 0);
    buffer = buffer.subarray(0, bytesRead);
  } finally {
    await handle.close();
  }
  const size = stats.size === 0 ? buffer.length : stats.size;
  if (looksBinary(buffer)) {
    const data = {
      operation: 'read',
      path: path.display,
      text: '',
      totalLines: 0,
      firstLine: 1,
      truncated: false,
      binary: true,
      bytes: size,
    } as const;
    return {
      type: 'tool-success',
      forModel: `${path.display} is a binary file (${size.toLocaleString('en-US')} bytes); not shown`,
      data,
    };
  }
  const capped = buffer.length > maxBytes;
  const text = buffer.subarray(0, maxBytes).toString('utf8');
  const allLines = text.split('\n');
  if (allLines.at(-1) === '') allLines.pop();
  const first = args.offset ?? 1;
  const chosen = allLines.slice(first - 1, args.limit === undefined ? undefined : first - 1 + args.limit);
  const shown =
    args.line_numbers === true ? chosen.map((line, index) => `${String(first + index).padStart(6)}\t${line}`) : chosen;
  const truncated = capped || first - 1 + chosen.length < allLines.length;
  const notes: string[] = [];
  if (capped)
    notes.push(
      `[the file is ${size.toLocaleString('en-US')} bytes; only the first ${maxBytes.toLocaleString('en-US')} were read]`,
    );
  else if (truncated)
    notes.push(`[lines ${first}–${first - 1 + chosen.length} of ${allLines.length}; use offset and limit for more]`);
  const data = {
    operation: 'read',
    path: path.display,
    text: shown.join('\n'),
    totalLines: allLines.length,
    firstLine: first,
    truncated,
    binary: false,
    bytes: size,
  } as const;
  return { type: 'tool-success', forModel: [shown.join('\n'), ...notes].join('\n'), data };
}

async function listOperation(
  path: ResolvedPath,
  args: FileOperationsArgs,
  maxEntries: number,
): Promise<ToolResult<FileData>> {
  const stats = await stat(path.real);
  if (!stats.isDirectory()) return toolFailure('file-not-directory', `${path.display} is not a directory`);
  const maxDepth = args.recursive === true ? (args.depth ?? 3) : 1;
  const entries: ListEntry[] = [];
  let truncated = false;
  // Names are read as bytes and the walk goes by bytes: a name that is not UTF-8 is listed
  // (shown with \xNN), and its directory is still entered.
  const walk = async (directory: Buffer, prefix: string, depth: number): Promise<void> => {
    const children = (await readdir(directory, { withFileTypes: true, encoding: 'buffer' }))
      .map((child) => ({ child, name: fileNameText(child.name) }))
      .sort((a, b) => a.name.localeCompare(b.name));
    for (const { child, name } of children) {
      if (entries.length >= maxEntries) {
        truncated = true;
        return;
      }
      if (SKIPPED.has(name) && args.include_ignored !== true) continue;
      const full = Buffer.concat([directory, Buffer.from('/'), child.name]);
      const type = typeOf(child);
      let size: number | null = null;
      // An entry removed while the walk runs is listed without its size, not the listing's failure.
      if (type === 'file')
        size = await lstat(full).then(
          (stats) => stats.size,
          () => null,
        );
      entries.push({ path: prefix + name + (type === 'directory' ? '/' : ''), type, size });
      // Symlinked directories are listed, never entered: a link cannot lead the walk outside.
      if (type === 'directory' && depth < maxDepth) await walk(full, `${prefix}${name}/`, depth + 1);
    }
  };
  await walk(Buffer.from(path.real), '', 1);
  const lines = entries.map((entry) =>
    entry.size === null ? entry.path : `${entry.path}\t${entry.size.toLocaleString('en-US')} bytes`,
  );
  if (truncated) lines.push(`[stopped at ${maxEntries} entries]`);
  if (entries.length === 0) lines.push('(empty directory)');
  return {
    type: 'tool-success',
    forModel: lines.join('\n'),
    data: { operation: 'list', path: path.display, entries, truncated },
  };
}

/**
 * Atomic: the content goes to a temporary file beside the target, is flushed, takes the old
 * file's mode, and is renamed over it, so a crash leaves the old file or the new one, never
 * half of either. A symlink whose target leaves the workspace is never written through.
 */
async function writeOperation(
  path: ResolvedPath,
  content: string,
  createParents: boolean,
): Promise<ToolResult<FileData>> {
  if (path.escapesThroughSymlink) {
    return toolFailure(
      'file-symlink-escape',
      `${path.requested} is a symlink to ${path.real}, outside the workspace; refusing to write through it (write to ${path.real} itself if that is meant)`,
    );
  }
  const target = path.real;
  const directory = dirname(target);
  let mode: number | undefined;
  try {
    const existing = await stat(target);
    if (existing.isDirectory()) return toolFailure('file-is-directory', `${path.display} is a directory`);
    mode = existing.mode & 0o7777;
  } catch {
    mode = undefined;
  }
  try {
    await stat(directory);
  } catch {
    if (!createParents)
      return toolFailure(
        'file-no-parent',
        `the directory ${dirname(path.display)} does not exist; set create_parents to create it`,
      );
    await mkdir(directory, { recursive: true });
  }
  const temporary = join(directory, `.${basename(target)}.riskgate-${randomBytes(6).toString('hex')}.tmp`);
  try {
    const descriptor = openSync(temporary, 'wx', mode ?? 0o644);
    try {
      writeSync(descriptor, content);
      fsyncSync(descriptor);
    } finally {
      closeSync(descriptor);
    }
    if (mode !== undefined) await chmod(temporary, mode);
    await rename(temporary, target);
  } catch (error) {
    await rm(temporary, { force: true });
    throw error;
  }
  const bytes = Buffer.byteLength(content);
  const created = mode === undefined;
  return {
    type: 'tool-success',
    forModel: `${created ? 'created' : 'wrote'} ${path.display} (${bytes.toLocaleString('en-US')} bytes)`,
    data: { operation: 'write', path: path.display, created, bytes },
  };
}

function fileFailure(error: unknown, path: ResolvedPath): ToolResult<FileData> {
  const code = (error as { code?: string }).code;
  switch (code) {
    case 'ENOENT':
      return toolFailure('file-not-found', `${path.display} does not exist`);
    case 'EACCES':
    case 'EPERM':
      return toolFailure('file-permission-denied', `permission denied: ${path.display}`);
    case 'ENOTDIR':
      return toolFailure('file-not-directory', `a part of ${path.display} is not a directory`);
    case 'EISDIR':
      return toolFailure('file-is-directory', `${path.display} is a directory`);
    case 'ENOSPC':
      return toolFailure('file-no-space', `no space left to write ${path.display}`);
    default:
      return toolFailure('file-error', `${path.display}: ${error instanceof Error ? error.message : String(error)}`);
  }
}
