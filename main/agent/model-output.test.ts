import { describe, expect, it } from 'vitest';
import { toModelOutput } from './model-output';

const facts = { kind: 'image', path: 'shot.png', mime: 'image/png', bytes: 3, width: 2, height: 1 };
const picture = { ok: true as const, value: { ...facts, data: 'AAEC' } };

describe('toModelOutput', () => {
  it('gives a model that takes images in tool results the facts as text and the picture as an image part', () => {
    expect(toModelOutput(picture, { images: true })).toEqual({
      type: 'content',
      value: [
        { type: 'text', text: JSON.stringify(facts) },
        { type: 'file', mediaType: 'image/png', data: { type: 'data', data: 'AAEC' } },
      ],
    });
  });

  it('tells any other model the facts and that it is not shown the picture, without the bytes', () => {
    const output = toModelOutput(picture);
    expect(output).toEqual({
      type: 'json',
      value: { ...facts, notice: expect.stringMatching(/not shown to you/) as unknown },
    });
  });

  it('leaves text, other objects and errors as they were', () => {
    expect(toModelOutput({ ok: true, value: 'hello' }, { images: true })).toEqual({ type: 'text', value: 'hello' });
    expect(toModelOutput({ ok: true, value: { kind: 'pdf', text: 'x' } }, { images: true })).toEqual({
      type: 'json',
      value: { kind: 'pdf', text: 'x' },
    });
    expect(toModelOutput({ ok: false, error: { code: 'file_not_found', message: 'gone' } })).toEqual({
      type: 'error-json',
      value: { ok: false, error: { code: 'file_not_found', message: 'gone' } },
    });
  });
});
