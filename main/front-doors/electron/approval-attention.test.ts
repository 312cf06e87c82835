import { describe, expect, it, vi } from 'vitest';
import { createEventHub } from '../../platform/ipc/event-hub';
import type { ApprovalRequest } from '../../../shared/ipc/approvals';
import { nativeText } from '../../../shared/i18n/native-strings';
import { watchApprovalAttention } from './approval-attention';

function setup(focused: boolean, t = nativeText('en')) {
  const events = createEventHub((error) => {
    throw error;
  });
  let pending = 0;
  const calls: string[] = [];
  const clicks: (() => void)[] = [];
  const ports = {
    isWindowFocused: () => focused,
    notify: vi.fn((title: string, body: string, onClick: () => void) => {
      calls.push(`notify ${title}: ${body}`);
      clicks.push(onClick);
    }),
    setBadge: (count: number) => calls.push(`badge ${count}`),
    flash: (on: boolean) => calls.push(`flash ${on}`),
    focusWindow: () => calls.push('focus'),
  };
  const attention = watchApprovalAttention(events, () => pending, ports, t);
  const ask = () => {
    pending += 1;
    events.emit('approvals.requested', request);
  };
  const resolve = () => {
    pending -= 1;
    events.emit('approvals.resolved', { id: 'a1', conversationId: 'c1', outcome: 'approved' });
  };
  return { calls, clicks, attention, request: ask, resolve, ports };
}

const request: ApprovalRequest = {
  id: 'a1',
  conversationId: 'c1',
  toolCallId: 't1',
  tool: 'edit_file',
  summary: 'Edit SOUL.md',
  paths: ['SOUL.md'],
  operations: ['edit'],
  facts: {},
  persona: true,
  canAllowForConversation: false,
  warnings: [],
  createdAt: '2026-01-01T00:00:00.000Z',
  expiresAt: '2026-01-01T00:10:00.000Z',
};

describe('approval attention', () => {
  it('notifies, flashes and badges when an approval arrives while the window is in the background', () => {
    const { calls, clicks, request, resolve, attention } = setup(false);
    request();
    expect(calls).toEqual(['badge 1', 'notify Familiar is waiting for your approval: Edit SOUL.md', 'flash true']);
    clicks[0]?.();
    expect(calls.at(-1)).toBe('focus');
    attention.windowFocused();
    expect(calls.at(-1)).toBe('flash false');
    resolve();
    expect(calls.at(-1)).toBe('flash false');
    expect(calls).toContain('badge 0');
  });

  it('only counts on the badge while the user is looking at the window', () => {
    const { calls, request, ports } = setup(true);
    request();
    expect(calls).toEqual(['badge 1']);
    expect(ports.notify).not.toHaveBeenCalled();
  });

  it('stops listening when asked', () => {
    const { calls, request, attention } = setup(false);
    attention.stop();
    request();
    expect(calls).toEqual([]);
  });

  it('words the notification in the chosen language', () => {
    const { calls, request } = setup(false, nativeText('ru'));
    request();
    expect(calls).toContain('notify Familiar ждёт вашего разрешения: Edit SOUL.md');
  });
});
