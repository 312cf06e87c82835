import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import type { AssistantPart } from '../../../shared/ipc/conversations';
import { initialChatState, useChatStore } from './chat-store';
import { ToolCallCard } from './ToolCallCard';

type ToolPart = Extract<AssistantPart, { type: 'tool' }>;
const call = (overrides: Partial<ToolPart>): ToolPart => ({
  type: 'tool',
  toolCallId: 'call-1',
  name: 'read_file',
  args: { path: 'notes/today.md' },
  result: null,
  ...overrides,
});

beforeEach(() => useChatStore.setState(initialChatState()));

describe('ToolCallCard', () => {
  it("shows a running call's progress as a bar and the tool's words, and no more once it answered", () => {
    const progress = { done: 2, total: 5, message: 'copying' };
    const { container, rerender } = render(<ToolCallCard part={call({ progress })} turnRunning />);
    expect(screen.getByRole('status').textContent).toBe('2 of 5 · copying');
    expect(container.querySelector('progress')?.getAttribute('value')).toBe('2');
    rerender(<ToolCallCard part={call({ progress, result: { ok: true, summary: 'done' } })} turnRunning />);
    expect(screen.queryByRole('status')).toBeNull();
  });

  it('shows the tool, its path and ok with the summary; arguments and result expand', async () => {
    const { container } = render(
      <ToolCallCard
        part={call({ result: { ok: true, summary: '# Today (12 lines)', value: '# Today\n...' } })}
        turnRunning={false}
      />,
    );
    const summary = container.querySelector('summary');
    expect(summary?.textContent).toContain('read_file');
    expect(summary?.textContent).toContain('notes/today.md');
    expect(summary?.textContent).toContain('ok');
    expect(summary?.textContent).toContain('# Today (12 lines)');
    const details = container.querySelector('details');
    expect(details?.open).toBe(false);
    await userEvent.setup().click(summary as HTMLElement);
    expect(details?.open).toBe(true);
    expect(screen.getByText(/"path": "notes\/today.md"/)).toBeTruthy();
  });

  it('tells what write_file did in words, with no absolute backup path in sight until the raw result is opened', async () => {
    const backup = '/home/me/.config/Familiar/backups/2025-03-01/notes-today.md';
    const { container } = render(
      <ToolCallCard
        part={call({
          name: 'write_file',
          args: { path: 'notes/today.md', content: 'hello' },
          result: {
            ok: true,
            summary: 'notes/today.md: 2,048 bytes',
            value: {
              path: 'notes/today.md',
              bytes_written: 2048,
              created: false,
              encoding: 'utf-8',
              backup_path: backup,
            },
          },
        })}
        turnRunning={false}
      />,
    );
    await userEvent.setup().click(container.querySelector('summary') as HTMLElement);
    const facts = container.querySelector('.tool-facts');
    expect(facts?.textContent).toContain('Written2 kB');
    expect(facts?.textContent).toContain('replaced the previous content');
    expect(facts?.textContent).toContain('the previous version was kept in Familiar’s backups');
    const raw = container.querySelector<HTMLDetailsElement>('.tool-raw');
    expect(raw?.open).toBe(false);
    expect(raw?.textContent).toContain(backup);
    raw?.remove();
    expect(container.textContent).not.toContain(backup);
  });

  it('shows the error code of a failed call', () => {
    const { container } = render(
      <ToolCallCard
        part={call({
          result: { ok: false, code: 'file_not_found', summary: 'file_not_found: notes/today.md does not exist' },
        })}
        turnRunning={false}
      />,
    );
    expect(container.querySelector('.tool-outcome')?.textContent).toBe('file_not_found');
  });

  it('renders the unified diff an edit returns, with added and removed lines counted', () => {
    const diff = '--- a/MEMORY.md\n+++ b/MEMORY.md\n@@ -1,2 +1,2 @@\n # Memory\n-likes tea\n+likes green tea\n';
    const { container } = render(
      <ToolCallCard
        part={call({
          name: 'edit_file',
          args: { path: 'MEMORY.md', oldText: 'tea', newText: 'green tea' },
          result: { ok: true, summary: 'Edited MEMORY.md', value: { path: 'MEMORY.md', diff } },
        })}
        turnRunning={false}
      />,
    );
    expect(container.querySelector('.tool-diff-stats')?.getAttribute('aria-label')).toBe('1 line added, 1 removed');
    expect(container.querySelector('.diff-add')?.textContent).toBe('+likes green tea\n');
    expect(container.querySelector('.diff-del')?.textContent).toBe('-likes tea\n');
    expect(container.querySelectorAll('.diff-hunk')).toHaveLength(1);
  });

  it('says whether a missing result is still running, waits for approval, or was lost', () => {
    const { container, rerender } = render(<ToolCallCard part={call({})} turnRunning />);
    expect(container.querySelector('.tool-outcome')?.textContent).toBe('running…');
    useChatStore.setState({ awaitingApproval: { 'call-1': 'approval-1' } });
    rerender(<ToolCallCard part={call({})} turnRunning />);
    expect(container.querySelector('.tool-outcome')?.textContent).toBe('waiting for your approval');
    useChatStore.setState({ awaitingApproval: {} });
    rerender(<ToolCallCard part={call({})} turnRunning={false} />);
    expect(container.querySelector('.tool-outcome')?.textContent).toBe('no result');
  });
});
