import { execFileSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type ExecuteContext, evaluateToolCall, type GatePolicy, parseRule, type Rule } from '@riskgate/risk';
import { createExecuteCommandTool } from '../src/index.js';

/**
 * A real temporary home with real secrets (keys, cloud credentials, a renamed private key,
 * histories, a named pipe) and a workspace without any, so the judge's filesystem checks run
 * for real: recursive reads of the workspace are whitelisted, of the home are not.
 */
export interface GateFixture {
  readonly root: string;
  readonly home: string;
  readonly workspace: string;
  readonly cleanup: () => void;
}

const PRIVATE_KEY =
  '-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAA\n-----END OPENSSH PRIVATE KEY-----\n';

export function createGateFixture(): GateFixture {
  const root = realpathSync(mkdtempSync(join(tmpdir(), 'riskgate-command-')));
  // Open to others, as the directories above a person's workspace are (mkdtemp makes it 0700: private).
  chmodSync(root, 0o755);
  const home = join(root, 'home');
  const workspace = join(root, 'workspace');
  const files: Record<string, string> = {
    [join(home, '.ssh', 'id_rsa')]: PRIVATE_KEY,
    [join(home, '.ssh', 'id_ed25519')]: PRIVATE_KEY,
    [join(home, '.ssh', 'config')]: 'Host x\n',
    [join(home, '.aws', 'credentials')]:
      '[default]\naws_access_key_id = AKIAIOSFODNN7EXAMPLE\naws_secret_access_key = wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY\n',
    [join(home, '.aws', 'config')]: '[default]\nregion = eu-west-1\n',
    [join(home, 'backup.txt')]: PRIVATE_KEY,
    [join(home, '.netrc')]: 'machine example.com login me password hunter2\n',
    [join(home, '.bash_history')]: 'export GITHUB_TOKEN=ghp_x\n',
    [join(home, '.config', 'gh', 'hosts.yml')]: 'github.com:\n  oauth_token: gho_x\n',
    [join(home, 'notes', 'todo.txt')]: 'buy milk\n',
    // On the home allowlist: public keys and known hosts hold no secret.
    [join(home, '.ssh', 'id_rsa.pub')]: 'ssh-rsa AAAAB3NzaC1yc2E dev@laptop\n',
    [join(home, '.ssh', 'known_hosts')]: 'github.com ssh-ed25519 AAAAC3NzaC1lZDI1NTE5\n',
    // A credential store nobody names: private because the home is.
    [join(home, '.msmtprc')]: 'account default\nhost smtp.example.com\n',
    [join(home, 'project', '.env')]: 'API_KEY=secret\n',
    [join(workspace, 'README.md')]: '# demo\n',
    [join(workspace, 'package.json')]: '{"name":"demo","scripts":{"test":"vitest"}}\n',
    [join(workspace, 'src', 'a.ts')]: 'export const a = 1; // TODO\n',
    [join(workspace, 'src', 'deep', 'b.ts')]: 'export const b = 2;\n',
    [join(workspace, 'data.csv')]: 'a,b\n1,2\n',
    [join(workspace, 'names.txt')]: 'b\na\n',
    [join(workspace, 'file.txt')]: 'x\n',
    [join(workspace, 'a.txt')]: 'a\n',
    [join(workspace, 'b.txt')]: 'b\n',
    [join(workspace, 'log.txt')]: 'log\n',
    [join(workspace, 'input.txt')]: 'in\n',
    [join(workspace, 'dates.txt')]: '2020-01-01\n',
    [join(workspace, 'logo.png')]: 'PNG',
    [join(workspace, 'f')]: 'f\n',
    [join(workspace, 'x')]: 'x\n',
  };
  for (const [path, content] of Object.entries(files)) {
    mkdirSync(join(path, '..'), { recursive: true });
    writeFileSync(path, content);
  }
  mkdirSync(join(root, 'outside'));
  execFileSync('mkfifo', [join(home, 'pipe'), join(root, 'outside', 'pipe')]);
  symlinkSync(join(home, '.ssh', 'id_rsa'), join(workspace, 'innocent.txt'));
  execFileSync('git', ['init', '-q'], { cwd: workspace });
  return { root, home, workspace, cleanup: () => rmSync(root, { recursive: true, force: true }) };
}

export const tool = createExecuteCommandTool();

export function rules(...texts: [effect: Rule['effect'], text: string][]): Rule[] {
  return texts.map(([effect, text]) => {
    const parsed = parseRule(text, effect);
    if (!parsed.ok) throw new Error(parsed.error);
    return parsed.rule;
  });
}

/** One call through the real gate. */
export function gate(
  fixture: GateFixture,
  args: Record<string, unknown>,
  policy: GatePolicy = { mode: 'smart', rules: [] },
  sandbox?: boolean,
) {
  return evaluateToolCall(
    tool,
    args,
    { cwd: fixture.workspace, home: fixture.home, ...(sandbox === undefined ? {} : { sandbox }) },
    policy,
  );
}

/**
 * What the gated executor does once a call may run, without the gate: the assessor's plan for
 * these arguments handed to execute (tests that run the tool directly, as the executor would).
 */
export async function executeAssessed(
  tool: ReturnType<typeof createExecuteCommandTool>,
  args: Parameters<ReturnType<typeof createExecuteCommandTool>['execute']>[0],
  context: ExecuteContext,
) {
  const { plan } = await tool.assess(args, context);
  return tool.execute(args, context, plan);
}
