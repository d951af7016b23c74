const SQL_KEYWORDS = new Set(
  'SELECT FROM WHERE AND OR NOT IN IS NULL AS JOIN LEFT RIGHT INNER OUTER ON GROUP BY ORDER HAVING LIMIT OFFSET INSERT INTO VALUES UPDATE SET DELETE CREATE TABLE DROP ALTER TRUNCATE WITH DISTINCT COUNT SUM AVG MIN MAX UNION ALL CASE WHEN THEN ELSE END BEGIN COMMIT ROLLBACK RETURNING EXPLAIN ANALYZE PRAGMA GRANT REVOKE LIKE BETWEEN EXISTS ASC DESC INDEX VIEW'.split(
    ' ',
  ),
);

export interface Token {
  readonly text: string;
  readonly kind: 'keyword' | 'string' | 'number' | 'plain' | 'command' | 'option' | 'operator';
}

/** SQL split into tokens a renderer colours: keywords, strings, numbers. */
export function highlightSql(sql: string): Token[] {
  return [
    ...sql.matchAll(/('(?:[^']|'')*'?)|("(?:[^"]|"")*"?)|(\b\d+(?:\.\d+)?\b)|([A-Za-z_][A-Za-z0-9_]*)|(\s+|.)/g),
  ].map((match) => {
    if (match[1] !== undefined || match[2] !== undefined) return { text: match[0], kind: 'string' };
    if (match[3] !== undefined) return { text: match[0], kind: 'number' };
    if (match[4] !== undefined)
      return { text: match[0], kind: SQL_KEYWORDS.has(match[0].toUpperCase()) ? 'keyword' : 'plain' };
    return { text: match[0], kind: 'plain' };
  });
}

/** A shell line split into tokens: command names, options, operators, strings. */
export function highlightShell(command: string): Token[] {
  let expectCommand = true;
  return [...command.matchAll(/('[^']*'?)|("(?:[^"\\]|\\.)*"?)|(\|\||&&|[|;&<>]+)|(\s+)|([^\s|;&<>'"]+)/g)].map(
    (match) => {
      if (match[1] !== undefined || match[2] !== undefined) {
        expectCommand = false;
        return { text: match[0], kind: 'string' };
      }
      if (match[3] !== undefined) {
        expectCommand = /[|;&]/.test(match[0]);
        return { text: match[0], kind: 'operator' };
      }
      if (match[4] !== undefined) return { text: match[0], kind: 'plain' };
      const word = match[0];
      if (expectCommand && !/^[A-Za-z_][A-Za-z0-9_]*=/.test(word)) {
        expectCommand = false;
        return { text: word, kind: 'command' };
      }
      return { text: word, kind: word.startsWith('-') ? 'option' : 'plain' };
    },
  );
}
