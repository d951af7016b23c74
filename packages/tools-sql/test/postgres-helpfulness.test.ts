import { describe, expect, it } from 'vitest';
import { judgeSql } from './helpers.js';

/** Helpfulness: ordinary PostgreSQL reads stay whitelisted without a connection (the catalog snapshot). */
const READS = [
  'SELECT * FROM orders WHERE total BETWEEN 1 AND 10',
  'SELECT * FROM orders WHERE total NOT BETWEEN 1 AND 10',
  'SELECT * FROM orders WHERE total BETWEEN SYMMETRIC 10 AND 1',
  "SELECT * FROM t WHERE name ILIKE '%a%' AND name NOT LIKE 'b%' AND name SIMILAR TO 'a%'",
  'SELECT * FROM t WHERE a IS DISTINCT FROM b AND a IS NOT DISTINCT FROM c',
  "SELECT NULLIF(a, 0), data->>'x', data @> '{\"a\":1}', tags && ARRAY['x'], name || 'x', name ~ '^a', tsv @@ to_tsquery('x') FROM t",
  "SELECT * FROM t WHERE created_at > now() - interval '7 days' AND id = ANY(ARRAY[1,2]) AND x IN (1,2,3)",
  "SELECT date_trunc('month', created_at)::date AS m, count(*) FILTER (WHERE status = 'paid') FROM orders GROUP BY 1 ORDER BY 1",
  'SELECT EXTRACT(epoch FROM now()), CAST(x AS double precision), x::varchar(10), x::int[], x::jsonb, x::uuid FROM t',
  'SELECT (a, b) OVERLAPS (c, d) FROM t',
  'SELECT * FROM t WHERE a OPERATOR(pg_catalog.=) 1',
  'SELECT percentile_cont(0.5) WITHIN GROUP (ORDER BY x) FROM t',
  'SELECT * FROM t1 NATURAL JOIN t2 LEFT JOIN LATERAL (SELECT * FROM t3 WHERE t3.id = t1.id LIMIT 1) l ON true',
  "SELECT CASE WHEN a > 1 THEN 'x' ELSE 'y' END, a % 2, -a, NOT b, a IS NULL, b IS TRUE FROM t",
  "SELECT * FROM information_schema.columns WHERE table_name = 'orders'",
  'SELECT t.id, t.name FROM public.customers t',
  "SELECT array_agg(x ORDER BY x), string_agg(x, ',' ORDER BY x), json_build_object('a', 1) FROM t",
  'SELECT x FROM t ORDER BY x DESC NULLS LAST LIMIT 10 OFFSET 5',
  'SELECT DISTINCT ON (a) a, b FROM t ORDER BY a, b',
  "SELECT * FROM t WHERE x ~* 'a' AND y !~ 'b' AND z <> 1 AND w != 2",
  'SELECT 2 ^ 3, |/ 16, 5 & 3, 5 | 3, 5 # 3, ~5, 1 << 2',
  'SELECT a FROM t UNION ALL SELECT b FROM u INTERSECT SELECT c FROM v EXCEPT SELECT d FROM w',
  'SELECT xmin, ctid FROM t',
  "SELECT pg_size_pretty(pg_relation_size('t'))",
  'SELECT current_user, session_user, current_date, current_timestamp, localtime, user',
  'SELECT \'a\' COLLATE "C"',
  'SELECT t.*, row_to_json(t) FROM t',
];
describe('ordinary reads stay whitelisted', () => {
  it.each(READS)('%s', async (sql) => {
    const judged = await judgeSql(sql, { dialect: 'postgres' });
    expect(judged.reasons).toEqual([expect.stringMatching(/only reads/)]);
    expect(judged.whitelisted).toBe(true);
  });
});
