import { describe, expect, it } from 'vitest';
import { splitMarkdownBlocks } from './markdown-blocks';

describe('splitMarkdownBlocks', () => {
  it('splits paragraphs, headings and lists at blank lines', () => {
    expect(splitMarkdownBlocks('# Title\n\nFirst paragraph\nstill first.\n\n- a\n- b')).toEqual([
      '# Title\n',
      'First paragraph\nstill first.\n',
      '- a\n- b',
    ]);
  });

  it('never splits inside a fenced code block, even at blank lines', () => {
    const text = 'Look:\n\n```ts\nconst a = 1;\n\nconst b = 2;\n```\n\nDone.';
    expect(splitMarkdownBlocks(text)).toEqual(['Look:\n', '```ts\nconst a = 1;\n\nconst b = 2;\n```\n', 'Done.']);
  });

  it('keeps an unclosed fence (still streaming) in the last block', () => {
    expect(splitMarkdownBlocks('Intro\n\n~~~~py\nx = 1\n\n```\ny = 2')).toEqual([
      'Intro\n',
      '~~~~py\nx = 1\n\n```\ny = 2',
    ]);
  });

  it('keeps indented continuations with the list item they belong to', () => {
    expect(splitMarkdownBlocks('1. one\n\n   more of one\n2. two')).toEqual(['1. one\n\n   more of one\n2. two']);
  });

  it('keeps text with reference definitions whole so links still resolve', () => {
    const text = 'See [the docs][d].\n\nMore.\n\n[d]: https://example.com';
    expect(splitMarkdownBlocks(text)).toEqual([text]);
  });

  it('rebuilds the original text when the blocks are joined', () => {
    const text = 'a\n\n\nb\n\n```\n\n```\n\nc\n';
    expect(splitMarkdownBlocks(text).join('\n')).toBe(text);
  });
});
