import { describe, expect, it } from 'vitest';
import { parseAssistantArgs } from '../src/assistant-args.js';

describe('riskgate sql <database>', () => {
  it.each([
    ['mysql://root@127.0.0.1:3306/shop'],
    ['mariadb://root@127.0.0.1/shop'],
    ['postgres://ada@db/shop'],
    ['postgresql://ada@db/shop'],
    ['host=127.0.0.1 dbname=shop'],
  ])('%s as the first argument is the database', (url) => {
    expect(parseAssistantArgs(['sql', url])).toMatchObject({ kind: 'sql', database: url });
  });

  it('--db still wins, and a URL needs sql mode', () => {
    expect(parseAssistantArgs(['sql', '--db', 'a.sqlite'])).toMatchObject({ database: 'a.sqlite' });
    expect(parseAssistantArgs(['mysql://root@h/db'])).toHaveProperty('error');
  });

  it('a question after -p stays a question', () => {
    expect(parseAssistantArgs(['sql', 'mysql://root@h/db', '-p', 'how many?'])).toMatchObject({
      database: 'mysql://root@h/db',
      print: { prompt: 'how many?' },
    });
  });
});
