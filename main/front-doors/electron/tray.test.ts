import { EventEmitter } from 'node:events';
import { describe, expect, it, vi } from 'vitest';
import { nativeText } from '../../../shared/i18n/native-strings';
import { createEventHub } from '../../platform/ipc/event-hub';
import { QuietTray } from '../../test-support/electron-fakes';
import { hideOnClose, installTray, watchScheduleNotifications } from './tray';

interface MenuItem {
  label?: string;
  type?: string;
  click?: () => void;
}

function trayWith(t = nativeText('en')) {
  const trays: QuietTray[] = [];
  const menus: MenuItem[][] = [];
  const tips: string[] = [];
  class RecordingTray extends QuietTray {
    constructor() {
      super();
      trays.push(this);
    }
    override setToolTip = (text: string) => void tips.push(text);
  }
  const showWindow = vi.fn();
  const quit = vi.fn();
  const installed = installTray({
    Tray: RecordingTray as never,
    Menu: {
      buildFromTemplate: (template: MenuItem[]) => {
        menus.push(template);
        return {} as never;
      },
    } as never,
    image: {} as never,
    t,
    showWindow,
    quit,
  });
  return { trays, menus, tips, showWindow, quit, installed };
}

describe('the tray icon', () => {
  it('opens the window on a click or from its menu, and quits from its menu', () => {
    const { trays, menus, tips, showWindow, quit } = trayWith();
    expect(trays).toHaveLength(1);
    expect(tips).toEqual(['Familiar: the heartbeat and scheduled tasks keep running']);
    const menu = menus[0] ?? [];
    expect(menu.map((item) => item.label ?? item.type)).toEqual(['Open Familiar', 'separator', 'Quit Familiar']);
    trays[0]?.emit('click');
    expect(showWindow).toHaveBeenCalledTimes(1);
    menu[0]?.click?.();
    expect(showWindow).toHaveBeenCalledTimes(2);
    expect(quit).not.toHaveBeenCalled();
    menu[2]?.click?.();
    expect(quit).toHaveBeenCalledTimes(1);
  });

  it('speaks the chosen language', () => {
    const { menus } = trayWith(nativeText('ru'));
    expect(menus[0]?.map((item) => item.label).filter(Boolean)).toEqual(['Открыть Familiar', 'Завершить Familiar']);
  });
});

describe('closing the window with a tray', () => {
  it('hides it instead of quitting, until a quit is under way', () => {
    const app = new EventEmitter();
    const window = Object.assign(new EventEmitter(), { hide: vi.fn() });
    hideOnClose(app as never, window as never);
    const close = { preventDefault: vi.fn() };
    window.emit('close', close);
    expect(close.preventDefault).toHaveBeenCalledTimes(1);
    expect(window.hide).toHaveBeenCalledTimes(1);

    app.emit('before-quit', { preventDefault: () => undefined });
    const closeForReal = { preventDefault: vi.fn() };
    window.emit('close', closeForReal);
    expect(closeForReal.preventDefault).not.toHaveBeenCalled();
    expect(window.hide).toHaveBeenCalledTimes(1);
  });
});

describe('schedule notifications on the desktop', () => {
  function setup(focused: boolean) {
    const events = createEventHub((error) => {
      throw error;
    });
    const notified: string[] = [];
    const clicks: (() => void)[] = [];
    const unseen: number[] = [];
    const showWindow = vi.fn();
    watchScheduleNotifications(events, {
      isWindowFocused: () => focused,
      notify: (title, body, onClick) => {
        notified.push(`${title}: ${body}`);
        clicks.push(onClick);
      },
      unseenChanged: (count) => unseen.push(count),
      showWindow,
    });
    const notification = {
      id: 'n1',
      kind: 'heartbeat' as const,
      title: 'Heartbeat',
      body: 'The nightly build failed.',
      conversationId: 'c1',
      at: '2026-03-02T10:00:00.000Z',
    };
    return { events, notified, clicks, unseen, showWindow, notification };
  }

  it('shows a system notification while the window is hidden or in the background; a click opens it', () => {
    const { events, notified, clicks, unseen, showWindow, notification } = setup(false);
    events.emit('schedules.notification', notification);
    events.emit('schedules.changed', { unseen: 1 });
    expect(notified).toEqual(['Heartbeat: The nightly build failed.']);
    expect(unseen).toEqual([1]);
    clicks[0]?.();
    expect(showWindow).toHaveBeenCalledTimes(1);
  });

  it('leaves it to the page while the window is in front, but still counts for the badge', () => {
    const { events, notified, unseen, notification } = setup(true);
    events.emit('schedules.notification', notification);
    events.emit('schedules.changed', { unseen: 1 });
    expect(notified).toEqual([]);
    expect(unseen).toEqual([1]);
  });
});
