import { describe, expect, it } from 'vitest';
import { chunkText } from './chunk';
import { TextIndex } from './text-index';
import { processTerm, tokenize } from './tokenize';

const chunking = { targetTokens: 400, overlapTokens: 80 };

describe('tokenize and processTerm', () => {
  it('segments Chinese into words and lower-cases other scripts', () => {
    expect(tokenize('我喜欢喝茶。Hello МИР')).toEqual(['我', '喜欢', '喝茶', 'hello', 'мир']);
  });

  it('stems Russian and English word forms to the same term', () => {
    expect(processTerm('кошками')).toEqual(processTerm('кошка'));
    expect(processTerm('searching')).toEqual(processTerm('searches'));
    expect(processTerm('喝茶')).toEqual(['喝茶', '喝', '茶']);
  });
});

describe('chunkText', () => {
  it('keeps small texts whole with their heading and lines', () => {
    expect(chunkText('# Title\n\nFirst para.\n\nSecond para.', chunking)).toEqual([
      { text: '# Title\n\nFirst para.\n\nSecond para.', startLine: 1, endLine: 5, heading: 'Title' },
    ]);
  });

  it('cuts long texts into ~target-sized chunks that overlap', () => {
    const paragraphs = Array.from({ length: 60 }, (_, index) => `Paragraph ${index} ${'word '.repeat(40)}`);
    const chunks = chunkText(paragraphs.join('\n\n'), { targetTokens: 200, overlapTokens: 60 });
    expect(chunks.length).toBeGreaterThan(5);
    for (let index = 1; index < chunks.length; index++) {
      const previous = chunks[index - 1];
      const current = chunks[index];
      expect(current?.startLine).toBeLessThanOrEqual(previous?.endLine ?? 0);
      expect(current?.startLine).toBeGreaterThan(previous?.startLine ?? 0);
    }
    expect(chunks.at(-1)?.endLine).toBe(paragraphs.length * 2 - 1);
  });
});

describe('TextIndex', () => {
  const build = () => {
    const index = new TextIndex(chunking);
    index.setDocument('ru.md', '# Питомцы\n\nУ нас живут две кошки и собака.', String(1));
    index.setDocument('en.md', '# Plans\n\nWe are searching for a new apartment near the river.', String(1));
    index.setDocument('zh.md', '# 爱好\n\n我喜欢喝茶，也喜欢读书。', String(1));
    return index;
  };

  it('finds a Russian paragraph by another word form', () => {
    expect(build().search('кошками', { limit: 3 })[0]?.path).toBe('ru.md');
  });

  it('finds English by stem and Chinese by a differently segmented query', () => {
    const index = build();
    expect(index.search('search apartments', { limit: 3 })[0]?.path).toBe('en.md');
    expect(index.search('茶', { limit: 3 })[0]?.path).toBe('zh.md');
  });

  it('replaces and removes documents, and weights and filters hits', () => {
    const index = build();
    index.setDocument('en.md', 'Nothing about housing here.', String(2));
    expect(index.search('apartment', { limit: 3 })).toEqual([]);
    expect(index.versionOf('en.md')).toBe('2');
    index.removeDocument('ru.md');
    expect(index.search('кошка', { limit: 3 })).toEqual([]);
    index.setDocument('a.md', 'tea ceremony', String(1));
    index.setDocument('b.md', 'tea ceremony', String(1));
    expect(index.search('tea', { limit: 2, weight: (path) => (path === 'b.md' ? 2 : 1) })[0]?.path).toBe('b.md');
    expect(index.search('tea', { limit: 2, filter: (path) => path !== 'b.md' }).map((hit) => hit.path)).toEqual([
      'a.md',
    ]);
  });

  it('survives a save and load round trip', () => {
    const saved = JSON.parse(JSON.stringify(build().toJSON())) as unknown;
    const restored = new TextIndex(chunking);
    expect(restored.load(saved)).toBe(true);
    expect(restored.documentCount).toBe(3);
    expect(restored.search('кошки', { limit: 1 })[0]?.path).toBe('ru.md');
    expect(new TextIndex(chunking).load({ nonsense: true })).toBe(false);
  });
});
