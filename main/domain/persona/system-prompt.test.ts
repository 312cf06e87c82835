import { describe, expect, it } from 'vitest';
import { buildSystemPrompt } from './system-prompt';
import { defaultPromptCaps, truncateForPrompt } from './prompt-caps';

const tools = [
  { name: 'read_file', description: 'Read a text file. Long files come in pages.' },
  { name: 'memory_search', description: 'Search your memory.' },
];

describe('truncateForPrompt', () => {
  it('leaves text within the cap alone', () => {
    expect(truncateForPrompt('short', 10, 'SOUL.md')).toEqual({ text: 'short', omitted: 0 });
  });

  it('keeps ~75 % head and ~25 % tail around an explicit marker, within the cap', () => {
    const text = 'a'.repeat(6000) + 'b'.repeat(4000);
    const { text: cut, omitted } = truncateForPrompt(text, 1000, 'SOUL.md');
    expect(cut.length).toBeLessThanOrEqual(1000);
    const marker = `[...truncated: ${omitted} chars omitted, read_file SOUL.md for the rest]`;
    expect(cut).toContain(marker);
    const [head = '', tail = ''] = cut.split(`\n${marker}\n`);
    expect(head.length + tail.length + omitted).toBe(text.length);
    expect(head).toMatch(/^a+$/);
    expect(tail).toMatch(/^b+$/);
    expect(head.length / (head.length + tail.length)).toBeCloseTo(0.75, 2);
  });

  it('never splits a surrogate pair', () => {
    const text = '😀'.repeat(500);
    const { text: cut } = truncateForPrompt(text, 301, 'MEMORY.md');
    const loneSurrogate = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
    expect(loneSurrogate.test(cut)).toBe(false);
  });
});

describe('buildSystemPrompt', () => {
  it('includes memory files and their meters only when given, and says when memory is off', () => {
    const on = buildSystemPrompt({
      files: [
        { name: 'SOUL.md', text: 'I am calm.' },
        { name: 'USER.md', text: 'Ada likes tea.' },
        { name: 'MEMORY.md', text: 'Project Zeta ships Friday.' },
      ],
      memoryEnabled: true,
      tools,
      workspacePath: '/home/ada/notes',
      caps: defaultPromptCaps,
    });
    expect(on.text).toContain('I am calm.');
    expect(on.text).toContain('Ada likes tea.');
    expect(on.text).toContain('Project Zeta ships Friday.');
    expect(on.text).toContain('- memory_search: Search your memory.');
    expect(on.text).toContain('/home/ada/notes');
    expect(on.meters.map((meter) => meter.name)).toEqual(['SOUL.md', 'USER.md', 'MEMORY.md']);

    const off = buildSystemPrompt({
      files: [{ name: 'SOUL.md', text: 'I am calm.' }],
      memoryEnabled: false,
      tools: tools.slice(0, 1),
      workspacePath: '/w',
      caps: defaultPromptCaps,
    });
    expect(off.text).not.toContain('Ada');
    expect(off.text).toContain('switched memory off');
    expect(off.text).not.toContain('memory_search');
  });

  it('caps USER.md tighter than the others and the whole under the total', () => {
    const prompt = buildSystemPrompt({
      files: [
        { name: 'SOUL.md', text: 's'.repeat(30_000) },
        { name: 'USER.md', text: 'u'.repeat(10_000) },
        { name: 'MEMORY.md', text: 'm'.repeat(50_000) },
      ],
      memoryEnabled: true,
      tools,
      workspacePath: '/w',
      caps: { perFile: 20_000, userFile: 4_000, total: 30_000 },
    });
    const [soul, user, memory] = prompt.meters;
    expect(soul).toMatchObject({ chars: 30_000, cap: 20_000 });
    expect(soul?.includedChars).toBeLessThanOrEqual(20_000);
    expect(user?.includedChars).toBeLessThanOrEqual(4_000);
    // What is left of the total budget after SOUL.md and USER.md: about 6,000 characters.
    expect(memory?.includedChars).toBeLessThanOrEqual(30_000 - 20_000 - 4_000);
    expect(prompt.text).toContain('read_file MEMORY.md for the rest');
    expect(prompt.text).toContain('read_file USER.md for the rest');
  });
});
