import { describe, expect, it } from 'vitest';
import type { ImageRef } from '../../shared/chat-images';
import { modelTakesImages } from '../../shared/chat-images';
import { userContent } from './user-content';

const ref: ImageRef = {
  hash: 'a'.repeat(64),
  mime: 'image/png',
  bytes: 9,
  width: 3000,
  height: 1000,
  name: 'wide.png',
};
const scaled: ImageRef = {
  ...ref,
  sent: { hash: 'b'.repeat(64), mime: 'image/jpeg', bytes: 5, width: 2048, height: 683 },
};
const bytes = Buffer.from([1, 2, 3]);

describe('a user message for the model', () => {
  it('carries the scaled copy as an image part after the words', () => {
    const content = userContent('Look', [scaled], {
      vision: true,
      bytes: new Map([['b'.repeat(64), { mime: 'image/jpeg' as const, bytes }]]),
    });
    expect(content).toEqual([
      { type: 'text', text: 'Look' },
      { type: 'file', mediaType: 'image/jpeg', data: { type: 'data', data: bytes } },
    ]);
  });

  it('says a picture was not shown rather than dropping it silently', () => {
    const blind = userContent('Look', [ref], { vision: false, bytes: new Map() });
    expect(JSON.stringify(blind)).toContain('this model does not take images');
    const missing = userContent('', [ref], { vision: true, bytes: new Map() });
    expect(JSON.stringify(missing)).toContain('its file is missing');
  });

  it('is plain text when nothing is attached', () => {
    expect(userContent('Hi', undefined, { vision: true, bytes: new Map() })).toBe('Hi');
  });
});

describe('which models take images', () => {
  it('knows published models by name and asks about the rest', () => {
    expect(modelTakesImages({ kind: 'anthropic', model: 'claude-sonnet-4-5' })).toBe(true);
    expect(modelTakesImages({ kind: 'anthropic', model: 'claude-2.1' })).toBe(false);
    expect(modelTakesImages({ kind: 'openai', model: 'gpt-4o-mini' })).toBe(true);
    expect(modelTakesImages({ kind: 'openai', model: 'gpt-3.5-turbo' })).toBe(false);
    expect(modelTakesImages({ kind: 'openai-compatible', model: 'llava' })).toBe(false);
    expect(modelTakesImages({ kind: 'ollama', model: 'llava', vision: true })).toBe(true);
    expect(modelTakesImages({ kind: 'openai', model: 'gpt-4o', vision: false })).toBe(false);
  });
});
