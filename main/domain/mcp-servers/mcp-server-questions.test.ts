import { describe, expect, it } from 'vitest';
import { elicitationContent } from '../../../shared/elicitation-answer';
import { elicitationQuestion, elicitResult } from './mcp-server-questions';

/**
 * SEP-1034: a server's form may give each field a default. The dialog shows the form pre-filled
 * with them (the fields carry them to the renderer), and a user who sends it unchanged answers
 * with every default, each as its own type.
 */
describe("a server's form with defaults (SEP-1034)", () => {
  const requestedSchema = {
    type: 'object' as const,
    properties: {
      name: { type: 'string' as const, default: 'John Doe' },
      age: { type: 'integer' as const, default: 30 },
      score: { type: 'number' as const, default: 95.5 },
      status: { type: 'string' as const, enum: ['active', 'inactive', 'pending'], default: 'active' },
      verified: { type: 'boolean' as const, default: true },
      nickname: { type: 'string' as const },
    },
    required: [],
  };

  it('is drawn pre-filled, and sent unchanged it carries every default as its type', () => {
    const question = elicitationQuestion({ server: 'forms' }, { mode: 'form', message: 'Who?', requestedSchema });
    if (!question.ok) throw new Error(question.error.message);
    const fields = question.value.elicitation?.fields ?? [];
    expect(fields.map((field) => [field.name, field.default])).toEqual([
      ['name', 'John Doe'],
      ['age', 30],
      ['score', 95.5],
      ['status', 'active'],
      ['verified', true],
      ['nickname', undefined],
    ]);
    const { content, problems } = elicitationContent(fields, {});
    expect(problems).toEqual([]);
    expect(elicitResult({ approved: true, allowForConversation: false, elicitationContent: content }, 'form')).toEqual({
      action: 'accept',
      content: { name: 'John Doe', age: 30, score: 95.5, status: 'active', verified: true },
    });
  });

  it('sends what the user changed instead of the default, and leaves an emptied optional field out', () => {
    const question = elicitationQuestion({ server: 'forms' }, { mode: 'form', message: 'Who?', requestedSchema });
    if (!question.ok) throw new Error(question.error.message);
    const fields = question.value.elicitation?.fields ?? [];
    const { content } = elicitationContent(fields, { name: '', age: '41', verified: false });
    expect(content).toEqual({ age: 41, score: 95.5, status: 'active', verified: false });
  });
});
