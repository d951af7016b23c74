import { chmodSync, mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { evaluateToolCall } from '@riskgate/risk';
import { createExecuteCommandTool } from '@riskgate/tools-command';
import { afterAll, describe, expect, it } from 'vitest';
import {
  type ConfigFile,
  ConfigError,
  createGatedExecutor,
  loadConfig,
  MANAGED_POLICY_VARIABLE,
  type ResolvedConfig,
} from '../src/index.js';

const root = realpathSync(mkdtempSync(join(tmpdir(), 'riskgate-managed-')));
afterAll(() => rmSync(root, { recursive: true, force: true }));
let counter = 0;

const DENY_RM = { rules: { deny: ['execute_command(rm *)'] } };

interface Setup {
  /** The system file's contents (JSON value, or raw text when a string). */
  readonly managed?: unknown;
  /** A second file named by RISKGATE_MANAGED_POLICY. */
  readonly extra?: unknown;
  readonly user?: ConfigFile;
  readonly project?: ConfigFile;
  readonly trusted?: boolean;
  readonly env?: Record<string, string>;
  readonly flags?: ConfigFile;
}

function write(path: string, value: unknown): void {
  writeFileSync(path, typeof value === 'string' ? value : JSON.stringify(value));
}

/** Real files: the organisation's policy, the person's config home, a checkout with .riskgate/. */
function setup(options: Setup) {
  const base = join(root, `case-${counter++}`);
  const home = join(base, 'config-home');
  const projectDirectory = join(base, 'checkout');
  mkdirSync(join(home, 'riskgate'), { recursive: true });
  mkdirSync(join(projectDirectory, '.riskgate'), { recursive: true });
  const user =
    options.trusted === true ? { ...options.user, trustedProjects: [projectDirectory] } : (options.user ?? {});
  write(join(home, 'riskgate', 'config.json'), user);
  if (options.project !== undefined) write(join(projectDirectory, '.riskgate', 'config.json'), options.project);
  const managedPolicyPath = join(base, 'managed-policy.json');
  if (options.managed !== undefined) write(managedPolicyPath, options.managed);
  const env: Record<string, string> = { XDG_CONFIG_HOME: home, ...options.env };
  if (options.extra !== undefined) {
    env[MANAGED_POLICY_VARIABLE] = join(base, 'extra-policy.json');
    write(env[MANAGED_POLICY_VARIABLE], options.extra);
  }
  return { env, projectDirectory, managedPolicyPath, base };
}

function load(options: Setup): ResolvedConfig {
  const { env, projectDirectory, managedPolicyPath } = setup(options);
  return loadConfig({
    projectDirectory,
    env,
    managedPolicyPath,
    ...(options.flags === undefined ? {} : { flags: options.flags }),
  });
}

const command = createExecuteCommandTool();
async function decisionFor(config: ResolvedConfig, line: string, riskLevel?: string) {
  const args = { command: line, ...(riskLevel === undefined ? {} : { risk_level: riskLevel }) };
  return (await evaluateToolCall(command, args, { cwd: root }, config.policy)).decision;
}

/** Every way a person or a project can try to let rm run: each row is one loosening path. */
const LOOSENING: readonly [string, Setup][] = [
  ['a user allow rule for rm', { user: { rules: { allow: ['execute_command(rm *)'] } } }],
  ['a user allow rule for the whole tool', { user: { rules: { allow: ['execute_command'] } } }],
  ['a user config in yolo', { user: { mode: 'yolo' } }],
  ['--allow on the command line', { flags: { rules: { allow: ['execute_command'] } } }],
  ['--yolo on the command line', { flags: { mode: 'yolo' } }],
  ['RISKGATE_MODE=yolo', { env: { RISKGATE_MODE: 'yolo' } }],
  [
    "a trusted project's yolo and allow rules",
    { trusted: true, project: { mode: 'yolo', rules: { allow: ['execute_command'] } } },
  ],
  ["an untrusted project's allow rules", { project: { rules: { allow: ['execute_command'] } } }],
];

/** Spellings of running rm that docs/rules.md says `execute_command(rm *)` catches. */
const RM_SPELLINGS = [
  'rm -rf build',
  '/bin/rm -rf build',
  '\\rm x',
  '"rm" x',
  "$'\\x72\\x6d' x",
  'command rm x',
  'env -i rm x',
  'nice rm x',
  'timeout 5 rm x',
  'sudo rm x',
  "find . -name '*.tmp' -exec rm {} +",
  "find . -name '*.tmp' | xargs rm",
  "sh -c 'rm x'",
  'bash -c "bash -c \'rm x\'"',
  'eval rm x',
  'echo $(rm x)',
  'ls; rm -rf ~',
  'true && rm x',
];

describe('a managed deny rule for execute_command(rm *)', () => {
  describe.each(LOOSENING)('holds against %s', (_path, options) => {
    const config = load({ ...options, managed: DENY_RM });
    it.each(RM_SPELLINGS)('refuses %s, naming the organisation', async (line) => {
      const decision = await decisionFor(config, line, 'low');
      expect(decision.action).toBe('deny');
      expect(decision.managed).toBe(true);
      expect(decision.why).toBe("your organisation's policy denies execute_command(rm *)");
    });
  });

  it.each(['echo rm -rf x', 'grep rm notes.txt', 'ls -la'])('leaves %s alone (nothing runs rm)', async (line) => {
    const decision = await decisionFor(load({ managed: DENY_RM, flags: { mode: 'yolo' } }), line);
    expect(decision.action).not.toBe('deny');
  });

  it('holds in the exported executor, which reads the managed policy itself', async () => {
    const { managedPolicyPath, base } = setup({ managed: DENY_RM });
    const executor = createGatedExecutor({
      tools: [command],
      policy: { mode: 'yolo', rules: [] },
      assess: { cwd: base },
      managedPolicyPath,
    });
    writeFileSync(join(base, 'victim'), 'x');
    const outcome = await executor.run({ id: '1', name: 'execute_command', arguments: { command: 'rm victim' } });
    expect(outcome.state).toBe('denied');
    expect(outcome.forModel).toMatch(/refused by policy.*do not try it another way/);
    expect(executor.policy.managed?.rules.map((rule) => rule.text)).toEqual(['execute_command(rm *)']);
  });

  it('holds when RISKGATE_MANAGED_POLICY adds a second file, and both files apply', async () => {
    const config = load({
      managed: DENY_RM,
      extra: { rules: { ask: ['execute_command(git push *)'] } },
      user: { mode: 'yolo' },
    });
    expect(config.managed?.sources).toHaveLength(2);
    expect((await decisionFor(config, 'rm x')).action).toBe('deny');
    const push = await decisionFor(config, 'git push origin main');
    expect(push).toMatchObject({
      action: 'confirm',
      managed: true,
      why: "your organisation's policy asks for execute_command(git push *)",
    });
  });
});

describe('the managed mode floor', () => {
  // A call the looser modes run unasked: the model rates a write low.
  const write = 'touch out.txt';
  // The floor is a mode: the person's allow rules still decide in guarded, as they always do there
  // (docs/gate.md step 4); what must never run unasked is a managed ask or deny rule's work.
  const MODE_PATHS: readonly [string, Setup][] = [
    ...LOOSENING.filter(([path]) => /yolo/.test(path) && !/allow/.test(path)),
    ["a trusted project's yolo", { trusted: true, project: { mode: 'yolo' } }],
  ];
  it.each(MODE_PATHS)('guarded holds against %s', async (_path, options) => {
    const config = load({ ...options, managed: { minimumMode: 'guarded' } });
    expect(config.mode).toBe('guarded');
    const decision = await decisionFor(config, write, 'low');
    expect(decision.action).toBe('confirm');
    expect(decision.source).toBe('guard');
    expect(decision.notes).toContain("your organisation's policy sets the mode to at least guarded");
  });

  it.each(LOOSENING)('strict holds against %s, allow rules included', async (_path, options) => {
    const config = load({ ...options, managed: { minimumMode: 'strict' } });
    expect(config.mode).toBe('strict');
    const decision = await decisionFor(config, 'ls', 'low');
    expect(decision).toMatchObject({ action: 'confirm', source: 'mode', managed: true });
  });

  it.each<[string, Setup]>([
    ['--yolo', { flags: { mode: 'yolo' } }],
    ['RISKGATE_MODE=yolo', { env: { RISKGATE_MODE: 'yolo' } }],
    ['a user yolo', { user: { mode: 'yolo' } }],
    ["a trusted project's yolo", { trusted: true, project: { mode: 'yolo' } }],
  ])('smart (no yolo) holds against %s, and says so', (_path, options) => {
    const config = load({ ...options, managed: { minimumMode: 'smart' } });
    expect(config.mode).toBe('smart');
    expect(config.managedNotice).toMatch(/mode yolo is below the floor, so smart applies/);
  });

  it('leaves a stricter choice of the person as it is', () => {
    expect(load({ managed: { minimumMode: 'guarded' }, flags: { mode: 'strict' } }).mode).toBe('strict');
  });

  it('holds when a host sets a looser policy on the executor afterwards', async () => {
    const config = load({ managed: { minimumMode: 'strict' } });
    const decision = await decisionFor({ ...config, policy: { ...config.policy, mode: 'yolo' } }, 'ls');
    expect(decision.action).toBe('confirm');
  });

  it('takes the strictest floor of the two files: the environment cannot lower the system one', () => {
    expect(load({ managed: { minimumMode: 'strict' }, extra: { minimumMode: 'smart' } }).mode).toBe('strict');
  });
});

describe('managed trust settings', () => {
  it('makes a listed project untrusted: its yolo and allow rules are left out', async () => {
    const config = load({
      managed: { projectTrust: false },
      trusted: true,
      project: { mode: 'yolo', rules: { allow: ['execute_command'] } },
    });
    expect(config.project.trusted).toBe(false);
    expect(config.mode).toBe('smart');
    expect(config.managedNotice).toMatch(/does not let projects be trusted/);
    expect((await decisionFor(config, 'touch x')).action).toBe('confirm');
  });
});

describe('a managed policy that cannot be used fails closed', () => {
  it.each<[string, unknown, RegExp]>([
    ['not JSON', '{"rules": ', /not valid JSON/],
    [
      'an allow list',
      { rules: { allow: ['execute_command'] } },
      /unknown field "allow" \(a managed policy can only ask and deny\)/,
    ],
    [
      'a rule that does not parse',
      { rules: { deny: ['execute_command(rm *'] } },
      /rules\.deny\[0\]: .*must end with "\)"/,
    ],
    ['a yolo floor', { minimumMode: 'yolo' }, /minimumMode/],
    ['an unknown field', { mode: 'yolo' }, /unknown field "mode"/],
    [
      'a telemetry endpoint that is not a URL',
      { telemetry: { enabled: true, endpoint: 'nope' } },
      /telemetry\.endpoint/,
    ],
  ])('%s is an error naming the file', (_name, contents, message) => {
    const { env, projectDirectory, managedPolicyPath } = setup({ managed: contents });
    const attempt = () => loadConfig({ projectDirectory, env, managedPolicyPath });
    expect(attempt).toThrow(ConfigError);
    expect(attempt).toThrow(managedPolicyPath);
    expect(attempt).toThrow(message);
  });

  it('an unreadable file is an error, not a policy skipped', () => {
    if (process.getuid?.() === 0) return; // root reads a 000 file: nothing to test there
    const { env, projectDirectory, managedPolicyPath } = setup({ managed: DENY_RM });
    chmodSync(managedPolicyPath, 0o000);
    expect(() => loadConfig({ projectDirectory, env, managedPolicyPath })).toThrow(/cannot be read/);
  });

  it('a folder where the file should be is an error', () => {
    const { env, projectDirectory, managedPolicyPath } = setup({});
    mkdirSync(managedPolicyPath);
    expect(() => loadConfig({ projectDirectory, env, managedPolicyPath })).toThrow(/cannot be read/);
  });

  it('RISKGATE_MANAGED_POLICY naming a file that is not there is an error', () => {
    const { env, projectDirectory, managedPolicyPath } = setup({
      env: { [MANAGED_POLICY_VARIABLE]: join(root, 'absent.json') },
    });
    expect(() => loadConfig({ projectDirectory, env, managedPolicyPath })).toThrow(
      /absent\.json \(named by RISKGATE_MANAGED_POLICY\): cannot be read/,
    );
  });

  it('the executor refuses to start on a broken policy', () => {
    const { managedPolicyPath } = setup({ managed: '{' });
    expect(() => createGatedExecutor({ tools: [command], managedPolicyPath })).toThrow(ConfigError);
  });

  it('no system file and no variable: no managed policy', () => {
    expect(load({}).managed).toBeUndefined();
  });
});

describe('telemetry settings', () => {
  const OTEL = { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:4318/' };
  it('is off by default, even with an OTLP endpoint in the environment', () => {
    expect(load({ env: OTEL }).telemetry).toBeUndefined();
  });

  it('RISKGATE_TELEMETRY=1 and the standard variables turn it on', () => {
    expect(
      load({ env: { ...OTEL, RISKGATE_TELEMETRY: '1', OTEL_EXPORTER_OTLP_HEADERS: 'x-key=a%20b,team=ops' } }).telemetry,
    ).toEqual({
      logsUrl: 'http://127.0.0.1:4318/v1/logs',
      tracesUrl: 'http://127.0.0.1:4318/v1/traces',
      headers: { 'x-key': 'a b', team: 'ops' },
      protocol: 'http/protobuf',
      source: 'RISKGATE_TELEMETRY',
    });
  });

  it('on without a collector is an error', () => {
    expect(() => load({ env: { RISKGATE_TELEMETRY: '1' } })).toThrow(/no collector is named/);
  });

  it('grpc is refused by name', () => {
    expect(() => load({ env: { ...OTEL, RISKGATE_TELEMETRY: '1', OTEL_EXPORTER_OTLP_PROTOCOL: 'grpc' } })).toThrow(
      /not "grpc"/,
    );
  });

  it('an untrusted project cannot turn it on or point it elsewhere', () => {
    const config = load({ project: { telemetry: { enabled: true, endpoint: 'http://198.51.100.7:4318' } } });
    expect(config.telemetry).toBeUndefined();
    expect(config.project.notice).toMatch(/telemetry\.enabled, telemetry\.endpoint/);
  });

  it('the managed policy turns it on for everyone, to its collector, whatever the person sets', () => {
    const config = load({
      managed: { telemetry: { enabled: true, endpoint: 'https://collector.example.com', headers: { 'x-org': 'k' } } },
      user: { telemetry: { enabled: false, endpoint: 'http://127.0.0.1:9' } },
      env: {
        RISKGATE_TELEMETRY: '0',
        OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:9',
        OTEL_EXPORTER_OTLP_LOGS_ENDPOINT: 'http://127.0.0.1:9/v1/logs',
      },
    });
    expect(config.telemetry).toMatchObject({
      logsUrl: 'https://collector.example.com/v1/logs',
      headers: { 'x-org': 'k' },
    });
    expect(config.telemetry?.source).toMatch(/^managed policy /);
  });

  it('a managed endpoint without enabled decides where it goes when the person turns it on', () => {
    const managed = { telemetry: { endpoint: 'https://collector.example.com' } };
    expect(load({ managed, env: OTEL }).telemetry).toBeUndefined();
    expect(load({ managed, env: { ...OTEL, RISKGATE_TELEMETRY: '1' } }).telemetry?.logsUrl).toBe(
      'https://collector.example.com/v1/logs',
    );
  });

  it('the managed policy can forbid it', () => {
    expect(
      load({ managed: { telemetry: { enabled: false } }, env: { ...OTEL, RISKGATE_TELEMETRY: '1' } }).telemetry,
    ).toBeUndefined();
  });
});
