import { parseArgs } from 'node:util';
import type { OutputFormat } from './headless.js';
import type { AssistantOptions } from './run-assistant.js';
import { modeFromFlags } from './mode-flag.js';

const FORMATS: readonly OutputFormat[] = ['text', 'json', 'stream-json'];

/** `riskgate [sql|chat] [options] [question…]` into what the assistant needs, or an error. */
export function parseAssistantArgs(argv: readonly string[]): AssistantOptions | { error: string } {
  let args = [...argv];
  let kind: AssistantOptions['kind'] = 'chat';
  if (args[0] === 'sql' || args[0] === 'chat') {
    kind = args[0];
    args = args.slice(1);
  }
  // --resume takes an optional value: --resume or --resume=<id>.
  let resume: string | true | undefined;
  args = args.filter((arg) => {
    if (arg === '--resume') {
      resume = true;
      return false;
    }
    if (arg.startsWith('--resume=')) {
      resume = arg.slice('--resume='.length) || true;
      return false;
    }
    return true;
  });
  let parsed: ReturnType<typeof parse>;
  try {
    parsed = parse(args);
  } catch (error) {
    return { error: (error as Error).message };
  }
  const { values } = parsed;
  let { positionals } = parsed;
  // `riskgate sql postgres://…` / `mysql://…` / `'host=… dbname=…'`: the database as the first argument.
  let database = values.db;
  if (
    kind === 'sql' &&
    database === undefined &&
    /^(postgres(ql)?|mysql|mariadb):\/\/|^\s*[a-z_]+\s*=/i.test(positionals[0] ?? '')
  ) {
    database = positionals[0];
    positionals = positionals.slice(1);
  }
  const chosenMode = modeFromFlags(values);
  if ('error' in chosenMode) return chosenMode;
  if (values.output !== undefined && values['output-format'] !== undefined && values.output !== values['output-format'])
    return { error: '--output and --output-format disagree: give one' };
  const output = values['output-format'] ?? values.output;
  if (output !== undefined && !(FORMATS as readonly string[]).includes(output))
    return { error: `--output-format must be text, json or stream-json, not "${output}"` };
  if (values.db !== undefined && kind !== 'sql') kind = 'sql';
  const print = values.print === true || output !== undefined || values.yes === true;
  if (!print && positionals.length > 0)
    return { error: `unexpected argument "${positionals[0]}" (a question goes after -p)` };
  const { mode } = chosenMode;
  return {
    kind,
    ...(database === undefined ? {} : { database }),
    ...(resume === undefined ? {} : { resume }),
    flags: {
      ...(values.model === undefined ? {} : { model: values.model }),
      ...(values['base-url'] === undefined ? {} : { baseURL: values['base-url'] }),
      ...(mode === undefined ? {} : { mode }),
    },
    ...(print
      ? {
          print: {
            ...(positionals.length === 0 ? {} : { prompt: positionals.join(' ') }),
            format: (output ?? 'text') as OutputFormat,
            yes: values.yes === true,
          },
        }
      : {}),
  };
}

function parse(args: string[]) {
  return parseArgs({
    args,
    allowPositionals: true,
    strict: true,
    options: {
      db: { type: 'string' },
      mode: { type: 'string' },
      yolo: { type: 'boolean' },
      model: { type: 'string' },
      'base-url': { type: 'string' },
      print: { type: 'boolean', short: 'p' },
      output: { type: 'string' },
      'output-format': { type: 'string' },
      yes: { type: 'boolean' },
    },
  });
}
