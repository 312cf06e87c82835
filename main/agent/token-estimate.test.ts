import { describe, expect, it } from 'vitest';
import { toModelOutput } from './model-output';
import { estimateMessageTokens, IMAGE_TOKENS } from './token-estimate';

describe('estimateMessageTokens', () => {
  it('counts a picture in a tool result as one image, not as its base64 characters', () => {
    const facts = { kind: 'image', path: 'shot.png', mime: 'image/png', bytes: 750_000, width: 1000, height: 800 };
    const output = toModelOutput({ ok: true, value: { ...facts, data: 'A'.repeat(1_000_000) } }, { images: true });
    const tokens = estimateMessageTokens({
      role: 'tool',
      content: [{ type: 'tool-result', toolCallId: 'call_1', toolName: 'read_file', output }],
    });
    expect(tokens).toBeGreaterThan(IMAGE_TOKENS);
    expect(tokens).toBeLessThan(IMAGE_TOKENS + 100);
  });
});
