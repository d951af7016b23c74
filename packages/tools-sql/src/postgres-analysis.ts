import { type Effect, type EffectSeverity, isSecretKeyName } from '@riskgate/risk';
import type { PgCatalog } from './pg-catalog.js';
import { displayName, type Findings, inspect, type Node, quotedName, type RelationUse } from './pg-inspect.js';
import {
  isSecretSetting,
  PG_QUERY_TEXT_RELATIONS,
  pgFunctionEffects,
  secretRelation,
  secretSettingHolds,
} from './pg-knowledge.js';
import { sizeEffects } from './pg-sizes.js';
import { secretColumnReads } from './secret-column-reads.js';
import { isReadOnly, reads, type StatementAnalysis, statement, unknownEffect, writeDb } from './statement-analysis.js';

export interface PgAnalysisContext {
  readonly catalog: PgCatalog;
  /** Parses SQL text (a view's definition) with the same grammar. */
  readonly parse: (sql: string) => Node[];
  /** Views within views: deeper than this is not followed (and not whitelisted). */
  readonly depth?: number;
}

const MAX_VIEW_DEPTH = 4;

/** Effects of what a tree calls: functions, attribute notation, operators, casts, sample methods. */
function codeEffects(findings: Findings, catalog: PgCatalog): { effects: Effect[]; names: string[] } {
  const effects: Effect[] = [];
  const names: string[] = [];
  const add = (name: string, found: Effect[]) => {
    if (found.length === 0) return;
    effects.push(...found);
    names.push(name);
  };
  for (const call of findings.functions)
    add(call.name, pgFunctionEffects(call.name, call.schema, call.literal, catalog));
  for (const attribute of findings.attributes) {
    const known =
      catalog.stableFunctions.has(attribute) ||
      catalog.volatileFunctions.has(attribute) ||
      catalog.userFunctions.has(attribute);
    // Not a function name at all: a column. A function name: PostgreSQL may call it on the value.
    if (known)
      add(
        attribute,
        pgFunctionEffects(attribute, undefined, undefined, catalog).map((effect) => ({
          ...effect,
          via: `.${attribute} (attribute notation calls ${attribute})`,
        })),
      );
  }
  for (const operator of findings.operators) {
    const foreign = operator.schema !== undefined && operator.schema !== 'pg_catalog';
    if (foreign || catalog.userOperators.has(operator.name) || !catalog.builtinOperators.has(operator.name)) {
      add(`operator ${operator.name}`, [
        unknownEffect(
          `uses the operator ${operator.schema === undefined ? '' : `${operator.schema}.`}${operator.name}, which is not a built-in operator riskgate can vouch for`,
        ),
      ]);
    }
  }
  for (const type of findings.types) {
    const foreign = type.schema !== undefined && type.schema !== 'pg_catalog';
    const known =
      ((!foreign && catalog.builtinTypes.has(type.name)) || catalog.safeUserTypes.has(type.name)) &&
      catalog.userCastTargets?.has(type.name) !== true;
    if (!known)
      add(`a cast to ${type.name}`, [
        unknownEffect(`casts to ${type.name}, a type whose input or cast functions riskgate cannot vouch for`),
      ]);
  }
  add([...new Set(findings.sizedCalls.map((call) => call.name))].join(', '), sizeEffects(findings.sizedCalls));
  for (const method of findings.sampleMethods) {
    if (!['bernoulli', 'system'].includes(method.toLowerCase()))
      add(`TABLESAMPLE ${method}`, [unknownEffect(`samples with ${method}, which is not a built-in sampling method`)]);
  }
  return { effects, names };
}

/** Reads of the relations a statement names, followed into views, policies and foreign tables. */
async function relationEffects(
  relations: readonly RelationUse[],
  context: PgAnalysisContext,
  findings?: Findings,
): Promise<Effect[]> {
  const effects: Effect[] = [];
  const unique = [...new Map(relations.map((relation) => [displayName(relation), relation])).values()];
  for (const relation of unique) {
    const secret = secretRelation(relation.schema, relation.name);
    effects.push(
      secret === undefined
        ? { kind: 'read-db', object: displayName(relation) }
        : { kind: 'read-db', object: displayName(relation), secret },
    );
  }
  const { inspectRelations } = context.catalog;
  if (inspectRelations === undefined || unique.length === 0) return effects;
  for (const facts of await inspectRelations(unique.map(quotedName)))
    effects.push(...(await relationFactsEffects(facts, context, findings)));
  return effects;
}

type RelationFacts = Awaited<ReturnType<NonNullable<PgAnalysisContext['catalog']['inspectRelations']>>>[number];

/** What reading one relation does beyond the read: secrets, a foreign server, its view's or policies' code. */
async function relationFactsEffects(
  facts: RelationFacts,
  context: PgAnalysisContext,
  findings: Findings | undefined,
): Promise<Effect[]> {
  const effects: Effect[] = [];
  const where = `${facts.schema}.${facts.name}`;
  const secret = secretRelation(facts.schema, facts.name);
  if (secret !== undefined) effects.push({ kind: 'read-db', object: where, secret });
  if (findings !== undefined && facts.key_value != null && context.catalog.readKeys !== undefined)
    effects.push(
      ...(await keyValueReads(facts.schema, facts.name, facts.key_value, findings, context.catalog.readKeys)),
    );
  if (facts.server !== null)
    effects.push({
      kind: 'connect',
      host: facts.server,
      note: `${where} is a foreign table: reading it connects to the server ${facts.server}`,
    });
  // Built-in views are PostgreSQL's own (the secret ones are listed by name); a user's view runs its definition.
  const system = facts.schema === 'pg_catalog' || facts.schema === 'information_schema';
  if ((facts.kind === 'v' || facts.kind === 'm') && !system && facts.definition !== null)
    effects.push(...(await viewSecretReads(facts.kind, where, facts.definition, context)));
  const code = [
    ...(facts.kind === 'v' && !system && facts.definition !== null ? [facts.definition] : []),
    ...facts.policies.map((policy) => `SELECT ${policy}`),
  ];
  const depth = context.depth ?? 0;
  for (const text of code) {
    if (depth >= MAX_VIEW_DEPTH) {
      effects.push(unknownEffect(`${where} is built on more than ${MAX_VIEW_DEPTH} levels of views`));
      break;
    }
    try {
      for (const tree of context.parse(text)) {
        const inner = await analyzePostgresStatement(tree, where, 'SELECT', { ...context, depth: depth + 1 });
        effects.push(
          ...inner.effects
            .filter((effect) => effect.kind !== 'read-db' || effect.secret !== undefined)
            .map((effect) => ({ ...effect, via: `${where} (view or policy)` })),
        );
      }
    } catch (error) {
      effects.push(unknownEffect(`the definition of ${where} cannot be read: ${(error as Error).message}`));
    }
  }
  return effects;
}

/**
 * A view (or materialized view) built on a credential column hands its values out under
 * whatever name it gives them (`SELECT pwd AS note FROM accounts`): reading it is a secret read.
 */
async function viewSecretReads(
  kind: string,
  where: string,
  definition: string,
  context: PgAnalysisContext,
): Promise<Effect[]> {
  const effects: Effect[] = secretColumnReads(definition, 'postgres').map((effect) => ({
    ...effect,
    via: `${where} (its definition reads it)`,
  }));
  const depth = context.depth ?? 0;
  if (kind !== 'm' || depth >= MAX_VIEW_DEPTH) return effects;
  // A materialized view's rows were stored when it was refreshed: its definition does not run, but what it read is in it.
  try {
    for (const tree of context.parse(definition)) {
      const inner = await analyzePostgresStatement(tree, where, 'SELECT', { ...context, depth: depth + 1 });
      effects.push(
        ...inner.effects
          .filter((effect) => effect.kind === 'read-db' && effect.secret !== undefined)
          .map((effect) => ({ ...effect, via: `${where} (materialized view)` })),
      );
    }
  } catch {
    // Its secret column names were already checked above.
  }
  return effects;
}

/**
 * A key/value table (`cfg(k, v)`) with a row whose key names a credential (`smtp_password`):
 * reading its value column is a secret read even when the key is not in the result
 * (`SELECT v FROM cfg WHERE k LIKE 'smtp%'`, `SELECT string_agg(v, ',') FROM cfg`), where the
 * output guard sees no key beside the value. The keys are read with the connection (see readKeys).
 */
async function keyValueReads(
  schema: string,
  table: string,
  [keyColumn, valueColumn]: readonly [string, string],
  findings: Findings,
  readKeys: NonNullable<PgAnalysisContext['catalog']['readKeys']>,
): Promise<Effect[]> {
  const reads =
    findings.unnamedColumns ||
    findings.wholeRows.length > 0 ||
    findings.columnNames.includes(valueColumn) ||
    findings.attributes.includes(valueColumn);
  if (!reads) return [];
  const keys = await readKeys(schema, table, keyColumn);
  const where = `${schema}.${table}`;
  if (keys === undefined)
    return [
      unknownEffect(`${where} looks like a key/value table and its keys cannot be read: a key may name a credential`),
    ];
  const secret = keys.filter((key) => isSecretKeyName(key));
  if (secret.length === 0) return [];
  return [
    {
      kind: 'read-db',
      object: `${where}.${valueColumn}`,
      secret: `a key/value table whose keys name credentials (${secret.slice(0, 3).join(', ')}): its values are secrets`,
    },
  ];
}

/** Other sessions' SQL text: pg_stat_activity.query, pg_stat_statements.query (see PG_QUERY_TEXT_RELATIONS). */
function queryTextReads(findings: Findings): Effect[] {
  const named = new Set([...findings.columnNames, ...findings.attributes]);
  const unnamed = findings.unnamedColumns || findings.wholeRows.length > 0;
  return [...new Map(findings.relations.map((relation) => [displayName(relation), relation])).values()].flatMap(
    (relation) => {
      const column = PG_QUERY_TEXT_RELATIONS.get(relation.name.toLowerCase());
      if (column === undefined || (!unnamed && !named.has(column))) return [];
      return [
        {
          kind: 'read-db' as const,
          object: `${displayName(relation)}.${column}`,
          secret: "the text of other sessions' statements, where passwords travel (CREATE ROLE … PASSWORD '…')",
        },
      ];
    },
  );
}

/** Whole rows as one value carry every column, credential columns among them, under no column name. */
function wholeRowReads(findings: Findings): Effect[] {
  return [...new Set(findings.wholeRows)].map((name) => ({
    kind: 'read-db',
    object: `whole rows of ${name}`,
    secret: 'every column as one value, a credential column among them unseen',
  }));
}

/** Judge one statement of libpg-query's AST. `verb` is its first keyword, for messages. */
export async function analyzePostgresStatement(
  tree: Node,
  subject: string,
  verb: string,
  context: PgAnalysisContext,
): Promise<StatementAnalysis> {
  const [kind, value] = Object.entries(tree)[0] ?? ['Unknown', {}];
  const node = (value ?? {}) as Node;
  const findings = inspect(node, (context.depth ?? 0) > 0);
  const code = codeEffects(findings, context.catalog);
  const relations = findings.relations.map(quotedName);
  const blocker =
    code.names.length === 0 ? undefined : `calls ${[...new Set(code.names)].join(', ')}, which a rollback cannot undo`;
  const writeOf = (
    table: string,
    detail: string,
    level?: EffectSeverity,
    previewable = true,
  ): Promise<StatementAnalysis> =>
    secretReads(findings, context).then((secrets) =>
      statement(subject, [writeDb(table, detail, level), ...secrets, ...code.effects], {
        writeTarget: table,
        previewable: previewable && blocker === undefined,
        relations,
        ...(blocker === undefined ? {} : { previewBlocker: blocker }),
      }),
    );
  const other = async (effect: Effect): Promise<StatementAnalysis> =>
    statement(subject, [effect, ...(await secretReads(findings, context)), ...code.effects], { relations });

  switch (kind) {
    case 'SelectStmt':
      return analyzeSelect(findings, subject, context, code.effects, relations, other);
    case 'VariableShowStmt': {
      const name = String(node.name ?? '');
      return statement(subject, [
        isSecretSetting(name)
          ? { kind: 'read-db', object: `the setting ${name}`, secret: secretSettingHolds(name) }
          : { kind: 'read-db', object: `the setting ${name}` },
      ]);
    }
    case 'ExplainStmt':
      return analyzeExplain(node, subject, context);
    case 'DeleteStmt':
    case 'UpdateStmt': {
      const table = relationName(node.relation);
      const hasWhere = node.whereClause !== undefined;
      return writeOf(
        table,
        filteredWriteText(kind === 'DeleteStmt' ? 'DELETE' : 'UPDATE', table, hasWhere),
        hasWhere ? undefined : 'high',
      );
    }
    case 'InsertStmt': {
      const table = relationName(node.relation);
      return writeOf(table, `INSERT adds rows to ${table}`);
    }
    case 'MergeStmt': {
      const table = relationName(node.relation);
      return writeOf(table, `MERGE inserts, updates or deletes rows of ${table}`);
    }
    default:
      return other(statementEffect(kind, node, subject, verb));
  }
}

/** A SELECT: reads, unless a data-modifying WITH, INTO or FOR UPDATE/SHARE makes it more. */
async function analyzeSelect(
  findings: Findings,
  subject: string,
  context: PgAnalysisContext,
  codeEffects: readonly Effect[],
  relations: readonly string[],
  other: (effect: Effect) => Promise<StatementAnalysis>,
): Promise<StatementAnalysis> {
  if (findings.dml.length > 0) {
    const inner = await Promise.all(
      findings.dml.map((dml) =>
        analyzePostgresStatement(
          { [dml.kind]: dml.node },
          subject,
          dml.kind.replace('Stmt', '').toUpperCase(),
          context,
        ),
      ),
    );
    const effects = inner.flatMap((analysis) => analysis.effects);
    return statement(
      subject,
      [
        writeDb('the database', 'a data-modifying WITH clause changes data even inside a SELECT'),
        ...effects,
        ...codeEffects,
      ],
      { relations },
    );
  }
  if (findings.into) return other(writeDb('a new table', 'SELECT … INTO creates a new table'));
  if (findings.locking) return other({ kind: 'hold-lock', detail: 'SELECT … FOR UPDATE/SHARE locks rows for writing' });
  return statement(
    subject,
    [
      ...(findings.relations.length === 0 ? [] : await relationEffects(findings.relations, context, findings)),
      ...wholeRowReads(findings),
      ...queryTextReads(findings),
      ...codeEffects,
      ...(findings.relations.length === 0 ? reads([]) : []),
    ],
    { relations },
  );
}

/** EXPLAIN: the statement it explains, which it runs only with ANALYZE. */
async function analyzeExplain(node: Node, subject: string, context: PgAnalysisContext): Promise<StatementAnalysis> {
  const inner = await analyzePostgresStatement((node.query ?? {}) as Node, subject, 'statement', context);
  if (explainAnalyzes(node)) {
    return isReadOnly(inner)
      ? inner
      : statement(subject, [...inner.effects, unknownEffect('EXPLAIN ANALYZE executes the statement it explains')], {
          relations: inner.relations,
        });
  }
  if (isReadOnly(inner)) return inner;
  // Planning runs no statement, but may fold a user's IMMUTABLE function: keep those effects.
  const planned = inner.effects.filter((effect) => effect.kind !== 'write-db' && effect.kind !== 'hold-lock');
  return statement(subject, [
    unknownEffect('EXPLAIN of a statement that writes: it only plans it, but is not on the whitelist'),
    ...planned,
  ]);
}

/** What a statement does that neither reads rows nor writes rows of one table: one effect, by its kind. */
function statementEffect(kind: string, node: Node, subject: string, verb: string): Effect {
  switch (kind) {
    case 'DropStmt':
      return writeDb('the schema', dropReason(node, subject), 'high');
    case 'TruncateStmt': {
      const tables = ((node.relations as Node[] | undefined) ?? []).map((relation) =>
        relationName((relation as Node).RangeVar),
      );
      return writeDb(
        tables.join(', ') || 'the table',
        `TRUNCATE removes every row of ${tables.join(', ') || 'the table'}`,
        'high',
      );
    }
    case 'CopyStmt':
      return copyEffect(node);
    case 'TransactionStmt':
      return { kind: 'change-session', detail: `transaction control (${verb}) is not on the whitelist` };
    case 'DoStmt':
      return {
        kind: 'run-program',
        program: 'a DO block',
        note: 'DO runs a block of procedural code',
        severity: 'high',
      };
    case 'CallStmt':
      return {
        kind: 'run-program',
        program: 'a stored procedure',
        note: 'CALL runs a stored procedure, which may change anything',
        severity: 'high',
      };
    case 'VariableSetStmt':
    case 'DiscardStmt':
    case 'PrepareStmt':
    case 'DeallocateStmt':
    case 'ListenStmt':
    case 'UnlistenStmt':
    case 'DeclareCursorStmt':
    case 'ClosePortalStmt':
      return {
        kind: 'change-session',
        detail:
          kind === 'VariableSetStmt'
            ? 'SET changes a setting of the session'
            : `${verb} changes the state of the session`,
      };
    case 'LockStmt':
      return { kind: 'hold-lock', detail: 'LOCK takes table locks' };
    case 'NotifyStmt':
      return writeDb('the database', 'NOTIFY sends a message to every listening session');
    case 'LoadStmt':
      return {
        kind: 'run-program',
        program: 'a shared library on the server',
        note: 'LOAD loads a shared library into the server',
        severity: 'high',
      };
    case 'GrantStmt':
    case 'GrantRoleStmt':
      return {
        kind: 'change-privilege',
        detail: `${node.is_grant === true ? 'GRANT' : 'REVOKE'} changes who may do what`,
      };
    case 'DropdbStmt':
      return writeDb('a database', 'DROP DATABASE removes a whole database', 'high');
    case 'RenameStmt':
      return writeDb('the schema', 'RENAME changes names that queries and applications depend on', 'high');
    default:
      if (kind.startsWith('Alter'))
        return writeDb('the schema', `${verb} changes the structure or definition of the database`, 'high');
      if (kind.startsWith('Drop') || kind.startsWith('ReassignOwned'))
        return writeDb('the schema', `${verb} removes database objects`, 'high');
      if (kind.startsWith('Create') || kind === 'IndexStmt' || kind === 'ViewStmt')
        return writeDb('the schema', `${verb} creates database objects`);
      return unknownEffect(`${verb || kind} is not on the whitelist`);
  }
}

/** Secret catalogs a write reads from (INSERT … SELECT rolpassword FROM pg_authid). */
async function secretReads(findings: Findings, _context: PgAnalysisContext): Promise<Effect[]> {
  return [
    ...findings.relations.flatMap((relation) => {
      const secret = secretRelation(relation.schema, relation.name);
      return secret === undefined ? [] : [{ kind: 'read-db' as const, object: displayName(relation), secret }];
    }),
    ...queryTextReads(findings),
  ];
}

function copyEffect(node: Node): Effect {
  if (node.is_program === true)
    return {
      kind: 'run-program',
      program: String(node.filename ?? 'a program'),
      note: 'COPY … PROGRAM runs a shell command on the database server',
      severity: 'high',
    };
  if (typeof node.filename === 'string') {
    const path = node.filename;
    const note = `COPY ${node.is_from === true ? 'reads' : 'writes'} the server file ${path}`;
    return node.is_from === true
      ? { kind: 'read-path', path, note, via: 'COPY FROM', severity: 'high' }
      : { kind: 'write-path', path, note, via: 'COPY TO', severity: 'high' };
  }
  if (node.is_from === true)
    return writeDb(relationName(node.relation), `COPY FROM loads rows into ${relationName(node.relation)}`);
  return unknownEffect('COPY is not on the whitelist');
}

export function relationName(relation: unknown): string {
  const range = relation as { schemaname?: string; relname?: string } | undefined;
  if (range?.relname === undefined) return 'a table';
  return range.schemaname === undefined ? range.relname : `${range.schemaname}.${range.relname}`;
}

/** DELETE or UPDATE: every row without WHERE, the matching rows with it. */
export function filteredWriteText(verb: 'DELETE' | 'UPDATE', table: string, hasWhere: boolean): string {
  const action = verb === 'DELETE' ? 'removes' : 'changes';
  return hasWhere
    ? `${verb} ${action} the rows of ${table} that match its WHERE`
    : `${verb} without WHERE ${action} every row of ${table}`;
}

/**
 * Whether EXPLAIN runs the statement: ANALYZE given bare, or with a value PostgreSQL reads as
 * true. Only an explicit false, off or 0 turns it off; anything else counts as on.
 */
function explainAnalyzes(explain: Node): boolean {
  const options = (explain.options as Node[] | undefined) ?? [];
  return options.some((option) => {
    const element = option.DefElem as
      | {
          defname?: string;
          arg?: { String?: { sval?: string }; Integer?: { ival?: number }; Boolean?: { boolval?: boolean } };
        }
      | undefined;
    if (element?.defname !== 'analyze') return false;
    const { arg } = element;
    if (arg === undefined) return true;
    if (arg.String !== undefined) return !['false', 'off', '0'].includes((arg.String.sval ?? '').toLowerCase());
    // libpg-query leaves ival out when it is 0.
    if (arg.Integer !== undefined) return (arg.Integer.ival ?? 0) !== 0;
    if (arg.Boolean !== undefined) return arg.Boolean.boolval === true;
    return true;
  });
}

function dropReason(drop: Node, subject: string): string {
  const objects = ((drop.objects as unknown[] | undefined) ?? []).map(objectName).filter((name) => name !== '');
  const what = /^DROP\s+(\w+(?:\s+VIEW)?)/i.exec(subject)?.[1]?.toUpperCase() ?? 'object';
  const names = objects.length > 0 ? objects.join(', ') : 'the object';
  return what === 'TABLE'
    ? `DROP TABLE removes ${names} and all ${objects.length > 1 ? 'their' : 'its'} rows`
    : `DROP ${what} removes ${names}`;
}

function objectName(object: unknown): string {
  const list =
    (object as { List?: { items?: Node[] } }).List?.items ?? (Array.isArray(object) ? (object as Node[]) : []);
  const parts = list
    .map((item) => (item as { String?: { sval?: string } }).String?.sval)
    .filter((part): part is string => part !== undefined);
  if (parts.length > 0) return parts.join('.');
  const single = (object as { String?: { sval?: string } }).String?.sval;
  return single ?? '';
}

/** For statements no parser could read: their verb's effect, never a read. */
export function keywordEffect(
  keyword: string,
  _subject: string,
  table: string,
  hasWhere: boolean,
): { effect: Effect; writeTarget?: string } {
  // TRUNCATE empties a table, as PostgreSQL's own parse says it (statementEffect's TruncateStmt).
  // No writeTarget: MySQL commits a TRUNCATE at once, so it never gets a rolled-back preview.
  if (keyword === 'TRUNCATE') return { effect: writeDb(table, `TRUNCATE removes every row of ${table}`, 'high') };
  if (['DROP', 'ALTER', 'GRANT', 'REVOKE', 'RENAME'].includes(keyword))
    return { effect: writeDb('the schema', `${keyword} changes or removes database objects`, 'high') };
  if (keyword === 'DELETE' || keyword === 'UPDATE')
    return {
      effect: writeDb(table, filteredWriteText(keyword, table, hasWhere), hasWhere ? undefined : 'high'),
      writeTarget: table,
    };
  if (keyword === 'INSERT' || keyword === 'REPLACE' || keyword === 'UPSERT')
    return { effect: writeDb(table, `${keyword} adds or replaces rows of ${table}`), writeTarget: table };
  if (keyword === 'CREATE') return { effect: writeDb('the schema', 'CREATE creates database objects') };
  if (keyword === 'SELECT' || keyword === 'WITH' || keyword === 'VALUES')
    return { effect: unknownEffect(`this ${keyword} could not be verified as read-only`) };
  return { effect: unknownEffect(`${keyword || 'this statement'} is not on the whitelist`) };
}
