import { homedir } from 'node:os';
import type { Effect, PathEffect } from './effects.js';
import {
  addressAllowed,
  classifyHostName,
  describeAddressClass,
  type NetworkPolicy,
  STRICT_NETWORK,
} from './knowledge/addresses.js';
import { isSecretEnvironmentName } from './knowledge/environment.js';
import {
  displayPath,
  expandPattern,
  hasGlob,
  isInside,
  type PathFact,
  pathFacts,
  patternMayReach,
  realPathOf,
} from './knowledge/path-lookup.js';
import { closedToOthers } from './knowledge/closed-files.js';
import { isPrivateHomePath } from './knowledge/home-allowlist.js';
import { scanTree } from './knowledge/tree-scan.js';
import { maxRiskLevel, type RiskLevel } from './levels.js';

/** What the judge needs to know about where the operation would run. */
export interface JudgeContext {
  /** The workspace: reads outside it bring in content from outside the person's trust. */
  readonly cwd: string;
  /** The home directory (`~`); tests point it at a temporary one. */
  readonly home?: string;
  /** Which non-public addresses a read may reach unasked (config `http.allowLoopback`/`allowPrivate`). */
  readonly network?: NetworkPolicy;
}

/** One effect with the judge's verdict on it. */
export interface JudgedEffect {
  readonly effect: Effect;
  /** Plain words: "reads ~/.aws/credentials (AWS credentials)", "runs rm". */
  readonly text: string;
  readonly level: RiskLevel;
  /**
   * `read`: a read or list of a non-secret resource (may run unasked); `secret`: a read that
   * hands over secrets; `side-effect`: a known write, delete, program run, connection, process,
   * privilege, session or lock change, or unbounded use; `unknown`: what could not be read.
   */
  readonly verdict: 'read' | 'secret' | 'side-effect' | 'unknown';
}

export interface Judgement {
  readonly level: RiskLevel;
  /** Every effect is a read or list of a non-secret resource, and nothing is unknown. */
  readonly whitelisted: boolean;
  /** Plain sentences for the panel: what is not safe first, then the assessor's notes. */
  readonly reasons: readonly string[];
  readonly effects: readonly JudgedEffect[];
  /** A known side effect, a secret read, or an effect the assessor rated high. */
  readonly knownDanger: boolean;
  /** The operation brings in content from outside the person's trust (a network read, a file outside the workspace). */
  readonly untrusted?: string;
}

const SAFE_HTTP_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);
/** Writes that go nowhere or to the command's own output. */
const HARMLESS_WRITE_TARGETS = new Set(['/dev/null', '/dev/stdout', '/dev/stderr', '/dev/fd/1', '/dev/fd/2']);

/** The one place where effects become a level and a whitelist verdict. */
export function judgeEffects(effects: readonly Effect[], context: JudgeContext): Judgement {
  const judged = effects
    .map((effect) => judgeEffect(effect, context))
    .filter((entry): entry is JudgedEffect => entry !== undefined);
  const notes = effects.flatMap((effect) => (effect.note === undefined ? [] : [effect.note]));
  // An assessor that raised a read's severity (COPY FROM a server file) took it off the whitelist.
  const whitelisted = judged.every((entry) => entry.verdict === 'read' && entry.level === 'low');
  const knownDanger = judged.some(
    (entry) => entry.verdict === 'secret' || entry.verdict === 'side-effect' || entry.level === 'high',
  );
  const untrusted = effects.map((effect) => untrustedSource(effect, context)).find((source) => source !== undefined);
  const level = whitelisted ? 'low' : maxRiskLevel(...judged.map((entry) => entry.level));
  const reasons = whitelisted
    ? [
        judged.length === 0
          ? 'does nothing riskgate needs to check'
          : `only reads: ${unique(judged.map((entry) => entry.text)).join('; ')}`,
        ...notes,
      ]
    : unique([...judged.filter((entry) => entry.verdict !== 'read').map((entry) => entry.text), ...notes]);
  return {
    level,
    whitelisted,
    reasons,
    effects: judged,
    knownDanger,
    ...(untrusted === undefined ? {} : { untrusted }),
  };
}

function unique(lines: readonly string[]): string[] {
  return [...new Set(lines)];
}

function raise(level: RiskLevel, effect: Effect): RiskLevel {
  return effect.severity === undefined ? level : maxRiskLevel(level, effect.severity);
}

function judgeEffect(effect: Effect, context: JudgeContext): JudgedEffect | undefined {
  const home = context.home ?? homedir();
  const namer: Namer = { home, cwd: context.cwd, workspace: context.cwd };
  const entry = (verdict: JudgedEffect['verdict'], level: RiskLevel, text: string): JudgedEffect => ({
    effect,
    verdict,
    level: raise(level, effect),
    text,
  });
  switch (effect.kind) {
    case 'read-path':
    case 'list-path':
      return judgeRead(effect, namer);
    case 'write-path': {
      if (HARMLESS_WRITE_TARGETS.has(effect.path)) return undefined;
      const facts = facts_(effect, namer).facts;
      const where = display(effect.path, namer);
      const danger = facts.find((fact) => fact.class === 'machine' || fact.class === 'secret' || fact.class === 'raw');
      if (danger !== undefined) return entry('side-effect', 'high', `writes ${where} (${danger.what})`);
      if (!isInside(realPathOf(effect.path), realPathOf(context.cwd)))
        return entry('side-effect', 'high', `writes ${where}, outside the workspace`);
      return entry('side-effect', 'medium', `writes ${where}`);
    }
    case 'delete-path':
      return entry(
        'side-effect',
        'high',
        `deletes ${display(effect.path, namer)}${effect.recursive ? ' and everything below it' : ''}`,
      );
    case 'run-program':
      return entry('side-effect', 'medium', `runs ${effect.program}`);
    case 'connect':
      return judgeConnect(effect, context);
    case 'read-env': {
      if (effect.names === 'all')
        return entry('secret', 'high', "reads the whole environment (riskgate's and your credentials included)");
      const secret = effect.names.filter(isSecretEnvironmentName);
      if (secret.length > 0)
        return entry(
          'secret',
          'high',
          `reads the secret environment variable${secret.length > 1 ? 's' : ''} ${secret.join(', ')}`,
        );
      return entry(
        'read',
        'low',
        `reads the environment variable${effect.names.length > 1 ? 's' : ''} ${effect.names.join(', ')}`,
      );
    }
    case 'control-process':
    case 'change-privilege':
      return entry('side-effect', 'high', effect.detail);
    case 'read-db':
      return effect.secret === undefined
        ? entry('read', 'low', `reads ${effect.object}`)
        : entry('secret', 'high', `reads ${effect.object} (${effect.secret})`);
    case 'write-db':
    case 'change-session':
    case 'hold-lock':
    case 'unbounded':
      return entry('side-effect', 'medium', effect.detail);
    case 'unknown':
      return entry('unknown', 'medium', effect.detail);
    default: {
      const unreachable: never = effect;
      throw new Error(`unknown effect ${JSON.stringify(unreachable)}`);
    }
  }
}

/** How paths are named to the person: relative inside the workspace, `~/…` in the home directory. */
interface Namer {
  readonly home: string;
  readonly cwd: string;
  /** The workspace (the judge's cwd): the home outside it is private. */
  readonly workspace: string;
}

function display(path: string, namer: Namer): string {
  return displayPath(path, namer);
}

interface PathFacts {
  readonly facts: readonly (PathFact & { readonly path?: string })[];
  /** What could not be checked. */
  readonly unchecked?: string;
  /** A path it reaches in the person's home, outside the workspace and off the allowlist. */
  readonly privateHome?: string;
}

/** Everything the knowledge base says about the path, its pattern's matches and its tree. */
function facts_(effect: PathEffect, namer: Namer): PathFacts {
  const { home } = namer;
  const facts: (PathFact & { path?: string })[] = [];
  if (effect.secret !== undefined) facts.push({ class: 'secret', what: effect.secret, path: effect.path });
  let unchecked: string | undefined;
  let paths = [effect.path];
  if (effect.pattern === true || hasGlob(effect.path)) {
    facts.push(...patternMayReach(effect.path, { home }));
    // Already known to reach a secret: expanding `/proc/*/task/*/environ` adds nothing but time.
    if (facts.some((fact) => fact.class === 'secret' || fact.class === 'raw')) return { facts };
    const expanded = expandPattern(effect.path);
    if (!expanded.complete) unchecked = `${display(effect.path, namer)} matches too many files to check`;
    paths = expanded.paths;
  }
  const privacy = { home, workspace: namer.workspace };
  let privateHome = [effect.path, ...paths].find((path) => isPrivateHomePath(path, privacy));
  const closedFacts: (PathFact & { path: string })[] = [];
  for (const path of paths) {
    // A recursive read of a directory that holds the home (`grep -r KEY /home`) reaches all of it.
    const holdsHome = effect.recursive === true && isInside(realPathOf(home), realPathOf(path));
    if (holdsHome && privateHome === undefined && isPrivateHomePath(home, privacy)) privateHome = home;
    const known = pathFacts(path, { home });
    for (const fact of known) facts.push({ ...fact, path });
    // Where the table and the content say nothing (they name a path better than its mode does).
    const closed = known.length > 0 ? undefined : closedToOthers(path, { home, workspace: namer.workspace });
    if (closed !== undefined) closedFacts.push({ ...closed, path });
    // A recursive read reaches every file below; a recursive listing only names them.
    // A listing that follows links (find -L, du -L) reaches the same trees: judged like a read.
    if (effect.recursive === true && (effect.kind === 'read-path' || effect.followsLinks === true)) {
      const scan = scanTree(path, {
        home,
        workspace: namer.workspace,
        ...(effect.skipsHidden === undefined ? {} : { skipsHidden: effect.skipsHidden }),
        ...(effect.followsLinks === true ? { followsLinks: true } : {}),
      });
      facts.push(...scan.facts);
      if (!scan.complete) unchecked ??= `${display(path, namer)} holds too many files to check them all for secrets`;
    }
  }
  facts.push(...closedFacts);
  return {
    facts,
    ...(unchecked === undefined ? {} : { unchecked }),
    ...(privateHome === undefined ? {} : { privateHome }),
  };
}

function judgeRead(effect: PathEffect, namer: Namer): JudgedEffect {
  const verb = effect.kind === 'list-path' ? 'lists' : 'reads';
  const where = `${display(effect.path, namer)}${effect.recursive ? ' and everything below it' : ''}`;
  const result = (verdict: JudgedEffect['verdict'], level: RiskLevel, text: string): JudgedEffect => ({
    effect,
    verdict,
    level: raise(level, effect),
    text,
  });
  const { facts, unchecked, privateHome } = facts_(effect, namer);
  const secrets = facts.filter((fact) => fact.class === 'secret' || fact.class === 'raw');
  if (secrets.length > 0) {
    const first = secrets[0]!;
    const what = unique(secrets.filter((fact) => fact.path === first.path).map((fact) => fact.what))
      .slice(0, 3)
      .join('; ');
    const inside = first.path !== undefined && first.path !== effect.path ? ` — ${display(first.path, namer)}` : '';
    return result('secret', 'high', `${verb} ${where} (${what}${inside})`);
  }
  if (privateHome !== undefined) {
    const inside = privateHome !== effect.path ? `, which reaches ${display(privateHome, namer)}` : '';
    return result(
      'secret',
      'medium',
      `${verb} ${where}${inside}, outside the workspace in your home (private unless allowlisted)`,
    );
  }
  const endless = facts.find((fact) => fact.class === 'endless');
  if (endless !== undefined && effect.kind === 'read-path')
    return result('side-effect', 'medium', `${verb} ${where}, ${endless.what}: the read never ends`);
  if (unchecked !== undefined) return result('unknown', 'medium', unchecked);
  return result('read', 'low', `${verb} ${where}`);
}

function judgeConnect(effect: Extract<Effect, { kind: 'connect' }>, context: JudgeContext): JudgedEffect {
  const target = `${effect.host}${effect.port === undefined ? '' : `:${effect.port}`}`;
  const named = classifyHostName(effect.host);
  const kind = named === 'name' ? effect.addressClass : named;
  const method = effect.method?.toUpperCase();
  const text =
    method === undefined
      ? `connects to ${target}`
      : `sends ${method} to ${effect.scheme === undefined ? '' : `${effect.scheme}://`}${target}`;
  const result = (verdict: JudgedEffect['verdict'], level: RiskLevel, why?: string): JudgedEffect => ({
    effect,
    verdict,
    level: raise(level, effect),
    text: why === undefined ? text : `${text} (${why})`,
  });
  if (kind === 'metadata') return result('side-effect', 'high', describeAddressClass('metadata', effect.host));
  if (effect.carriesSecret !== undefined) return result('secret', 'high', `carries ${effect.carriesSecret}`);
  if (method === 'DELETE') return result('side-effect', 'high', 'asks the server to remove a resource');
  if (method === undefined || !SAFE_HTTP_METHODS.has(method)) return result('side-effect', 'medium');
  if (kind === undefined) return result('unknown', 'medium', `${effect.host} was not resolved`);
  if (!addressAllowed(kind, context.network ?? STRICT_NETWORK))
    return result('side-effect', 'medium', describeAddressClass(kind, effect.host));
  return result('read', 'low');
}

/** Where content from outside the person's trust would come from, if anywhere. */
function untrustedSource(effect: Effect, context: JudgeContext): string | undefined {
  if (effect.kind === 'connect') return `content from ${effect.host}`;
  if (
    (effect.kind === 'read-path' || effect.kind === 'list-path') &&
    !isInside(realPathOf(effect.path), realPathOf(context.cwd))
  ) {
    return `${realPathOf(effect.path)}, outside the workspace`;
  }
  return undefined;
}
