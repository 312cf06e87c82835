import type { EventHub } from '../../platform/ipc/event-hub';
import { nativeText } from '../../../shared/i18n/native-strings';
import type { NativeText } from '../../../shared/i18n/native-strings';

/** What the OS can do to draw the user back; the Electron calls live in start-desktop. */
export interface AttentionPorts {
  isWindowFocused(): boolean;
  /** A system notification; a click on it brings the window forward. */
  notify(title: string, body: string, onClick: () => void): void;
  /** Dock / taskbar badge (macOS, Unity launchers); 0 clears it. */
  setBadge(count: number): void;
  /** Taskbar flash (Windows, Linux); bounces the dock icon on macOS. */
  flash(on: boolean): void;
  focusWindow(): void;
}

/**
 * Approvals wait for the user and expire (10 minutes): when one arrives while Familiar is in the
 * background, say so — a notification, a flashing taskbar entry — and keep the count on the badge
 * until every request is answered. Returns the unsubscribe.
 */
export function watchApprovalAttention(
  events: Pick<EventHub, 'subscribe'>,
  pendingCount: () => number,
  ports: AttentionPorts,
  t: NativeText = nativeText('en'),
): { readonly windowFocused: () => void; readonly stop: () => void } {
  const stop = events.subscribe((name, payload) => {
    if (name === 'approvals.requested') {
      ports.setBadge(pendingCount());
      if (ports.isWindowFocused()) return;
      const request = payload as { readonly summary: string };
      ports.notify(t('attention.title'), request.summary, () => ports.focusWindow());
      ports.flash(true);
    } else if (name === 'approvals.resolved') {
      const left = pendingCount();
      ports.setBadge(left);
      if (left === 0) ports.flash(false);
    }
  });
  return { windowFocused: () => ports.flash(false), stop };
}
