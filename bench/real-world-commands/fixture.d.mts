// Types of fixture.mjs for the TypeScript test that measures the corpus
// (packages/tools-command/test/real-world-commands.test.ts).
export interface CorpusLine {
  readonly command: string;
  readonly label: 'read-only' | 'side-effect';
  readonly family: string;
  readonly page: string;
  readonly description: string;
  readonly original: string;
}
export interface Fixture {
  readonly fix: string;
  readonly home: string;
  readonly ws: string;
  cleanup(): void;
}
export function buildFixture(): Fixture;
export function loadCorpus(): { read: CorpusLine[]; side: CorpusLine[] };
