import { describe, expect, it } from 'vitest';
import { withSnippets } from './snippets';
import type { ChunkHit } from './text-index';

const hit = (path: string, startLine: number, endLine: number): ChunkHit => ({
  path,
  startLine,
  endLine,
  heading: undefined,
  score: 1.23456,
  terms: [],
});

describe('withSnippets', () => {
  it('reads each file once, cuts long passages and drops hits whose file is not the one indexed', async () => {
    const reads: string[] = [];
    const files: Record<string, string[] | undefined> = { 'a.md': ['one', 'two', 'three'], 'gone.md': undefined };
    const hits = await withSnippets(
      [hit('a.md', 1, 2), hit('gone.md', 1, 1), hit('a.md', 3, 3)],
      (path) => {
        reads.push(path);
        return Promise.resolve(files[path]);
      },
      5,
    );
    expect(reads).toEqual(['a.md', 'gone.md']);
    expect(hits).toEqual([
      { file: 'a.md', startLine: 1, endLine: 2, heading: undefined, score: 1.235, snippet: 'one\nt…' },
      { file: 'a.md', startLine: 3, endLine: 3, heading: undefined, score: 1.235, snippet: 'three' },
    ]);
  });
});
