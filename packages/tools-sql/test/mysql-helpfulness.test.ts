import { describe, expect, it } from 'vitest';
import { judgeSql } from './helpers.js';

/** Helpfulness: ordinary MySQL/MariaDB reads stay whitelisted, even without a connection. */
const READS = [
  'SELECT DATE(created_at), COUNT(*) FROM orders GROUP BY DATE(created_at)',
  "SELECT * FROM t WHERE name LIKE 'a%' ORDER BY id DESC LIMIT 10",
  'SELECT IFNULL(x, 0), ROUND(x, 2), NOW() - INTERVAL 7 DAY FROM t',
  'SELECT COUNT(DISTINCT x) FROM t WHERE id IN (1, 2)',
  "SELECT x FROM t WHERE y REGEXP '^a' AND z NOT REGEXP 'b'",
  'SELECT CONVERT(x USING utf8mb4), CAST(x AS UNSIGNED), CAST(y AS DECIMAL(10, 2)) FROM t',
  'SELECT * FROM t1 LEFT JOIN t2 USING (id) RIGHT JOIN t3 ON t3.id = t1.id',
  'SELECT * FROM t FORCE INDEX (idx) WHERE a = 1',
  'SELECT SQL_CALC_FOUND_ROWS * FROM t LIMIT 5',
  "SHOW STATUS LIKE 'Uptime'", // SHOW PROCESSLIST shows other sessions' SQL text: a secret read (secret-columns.test.ts)
  "SHOW STATUS LIKE 'Threads%'",
  "SELECT * FROM t WHERE MATCH(a) AGAINST('x' IN BOOLEAN MODE)",
  "SELECT GROUP_CONCAT(x ORDER BY x SEPARATOR ',') FROM t",
  'SELECT * FROM t PARTITION (p0)',
  "SELECT JSON_UNQUOTE(JSON_EXTRACT(j, '$.a')), j->>'$.a' FROM t",
  'SELECT DATE_SUB(NOW(), INTERVAL 1 DAY), TIMESTAMPDIFF(DAY, a, b), YEAR(d), MONTH(d) FROM t',
  "SELECT SUBSTRING_INDEX(email, '@', -1), LEFT(name, 3), RIGHT(name, 2) FROM users",
  'SELECT COUNT(*) FROM t WHERE d >= CURDATE() AND d < CURRENT_DATE + INTERVAL 1 DAY',
  'SELECT UNIX_TIMESTAMP(), HEX(x), MD5(x), UUID() FROM t',
  'SELECT a, SUM(b) OVER (PARTITION BY a ORDER BY c ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW) FROM t',
  'WITH RECURSIVE n (i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 10) SELECT * FROM n',
  'SELECT `order`, `group` FROM `my table` WHERE `key` = 1',
  'SELECT * FROM t WHERE s = \'it\'\'s\' OR s = "say ""hi"""',
  'DESCRIBE orders',
  'EXPLAIN FORMAT=JSON SELECT * FROM orders',
  'SHOW INDEX FROM orders',
  'SELECT 1 # comment\n',
  'SELECT * FROM orders -- comment',
  'SELECT IF(a > 0, 1, 0), CASE WHEN a THEN 1 END, COALESCE(a, b), GREATEST(a, b), NULLIF(a, b) FROM t',
];
describe('ordinary reads stay whitelisted', () => {
  it.each(READS)('%s', async (sql) => {
    const judged = await judgeSql(sql, { dialect: 'mysql' });
    expect(judged.reasons).toEqual([expect.stringMatching(/only reads/)]);
    expect(judged.whitelisted).toBe(true);
  });
});

describe('a call with an alias is still a call', () => {
  it.each([
    ['mysql', 'SELECT evil() AS x'],
    ['mysql', 'SELECT SLEEP(1) AS x'],
    ['mysql', 'SELECT `evil`() AS `x`'],
    ['mysql', 'WITH c (a) AS (SELECT evil()) SELECT * FROM c'],
    ['mysql', 'SELECT value()'],
    ['mysql', 'SELECT datetime()'],
    ['mysql', 'SELECT signed(1)'],
    ['mysql', 'SELECT against(1)'],
    ['mysql', 'SELECT filter(1)'],
    ['mysql', 'SELECT 1 FROM t WHERE any(1)'],
    ['mysql', 'SELECT escape(1)'],
    ['sqlite', 'SELECT zeroblob(1000000000) AS x'],
    ['sqlite', 'SELECT my_udf(1) AS x'],
    ['sqlite', "SELECT readfile('/etc/passwd') AS x"],
  ] as const)('%s: %s', async (dialect, sql) => {
    expect((await judgeSql(sql, { dialect })).whitelisted).toBe(false);
  });
  it.each([
    ['mysql', 'WITH c (a) AS (SELECT 1) SELECT * FROM c'],
    ['mysql', 'SELECT CAST(x AS DATETIME(6)), CONVERT(y, DATETIME(3)), CAST(z AS SIGNED) FROM t'],
    ['mysql', 'SELECT x FROM t WHERE a = ANY (SELECT b FROM u) AND c > SOME (SELECT d FROM v)'],
    ['mysql', "SELECT * FROM t WHERE MATCH(a, b) AGAINST ('x')"],
    ['sqlite', 'WITH c(a) AS (SELECT 1) SELECT * FROM c'],
    ['sqlite', 'WITH c(a) AS MATERIALIZED (SELECT 1) SELECT * FROM c'],
  ] as const)('a CTE column list is not a call: %s: %s', async (dialect, sql) => {
    expect((await judgeSql(sql, { dialect })).whitelisted).toBe(true);
  });
});
