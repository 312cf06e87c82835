import type { App, BrowserWindow, Event, Menu, NativeImage, Tray } from 'electron';
import type { NativeText } from '../../../shared/i18n/native-strings';
import type { EventHub } from '../../platform/ipc/event-hub';
import type { EventPayload } from '../../../shared/ipc/contract';

/** Familiar's icon at 32 px (build/icons/32x32.png), inline: nothing to find on disk in a packaged app. */
export const trayIconDataUrl =
  'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAACAAAAAgCAYAAABzenr0AAAFKElEQVR4nOxXW2wUVRj+ZmbbLrTsttvSG/SqlCqWAKFtSKoWUYIhar2lIgQQUx+QR6z1mkb7YtQYE6PRN6OkVIkmRmOMQinFIhqM1RBabYu0aUOv9IJ2d7tzjv85s7Odmb3QJ/vCbHbO+c/l///vv50zKpb5UbHMz7Ir4Io38Wz9bJmuLOwGxzbG9GwOBnAOzqjHdVpBfc4ctJhnYHItvTkbo+45rrNv2k5u+jOWHMU58Mye2SwX9LcZ4/uIi0rCJXNGjI12KbTQVZcKiXFF4UzX2SdJOo62nt46YZVnc0FzM1ddnB0n4fsBFiVcII5FR7eGcINmQimSww4E1dAxJ2CbAqO9M4fIbDvsiBaRCYaxaBOpKdRJl6wdM8d31tX+eDCuAqR5TVhjm/C8NXwJyJkNeUGRS7buFD+O7OlAbtaMub42gQIoj4X8yQMq9j+tweWKhVy3IVdVjobDXjzV4EG2bxovNXyHgtxpvH7kW2xcPwyu6+VxFaDZnFhIM1PnUXMnR+PLLqSlIa7PU2nu1RYvarcnIdsTxNWJNLz47m5c7MvB4ZYH8dulHHCF5ySwQLTPk1MYViUHMH+2D8W5frzS4sLaQkUiLSzWyNQaNA1yrOUND0ryF+A/24+0lBDcKwxlP/q8CvN+zbCUzmyYbXWAR5mfwecjs3rJn3MB+DsvI7OqCC1vplNqKTKJFfoxYiz8p1+9RmsGKRw4kmmPz6fgn+sMV0Y8lqzgiGsBFsnjxWjPWh0SRoaWnYqUjWugZXlFXhvMwjGgwFjrys1ASkU+rU0TRQh5eWokNkzhOteXbgGxKTNTFBIN7qrSRTWZ6TJHKxgW+OQ/FJxHZha3BaipdFwFrMjNVCwqIfRJbhlo9sLJE9KqKxm3rkumfddhBupi4MZzQYw8v21DkrSMWef9/gDGR6cjtHEeMIyPzcA/H4jQYv+GipXRxSpRDDgrnKZxrPKo8mChai7n6h54B8+/8CUuXRwKu0NHf98o7t/1FppoXA+FIuOe9CRZO4wiFQbFEljAmd/lt5OPNGacdoSgt2cYIyPTWLHSjQsX/pZChHJdXb1YCOoQGfZX74jhPlov9t5R4XaU9YQKcJu5Nm9RjE3haM/OXiXTr7O9G7k5nsi6/Lx02T9zqhuraQ0sFXLTFjdgzS6esA5YA4Whs4PhbqpqZuCme91oatqFgYEJVFM94OGjt6qyEPX1lSgszJBreORIBvGYsx1MN8gC63nOMHiF8pZOUlU1olu8H3t0M3UUGfQTP1+mPpXqrcVobNwp56Xw8PxCiGOg/19bDLBEWaA7ansgwHCibUEytUazoAPBIE71jaG9bxzBQDBqXtygWj+dlDysMcATWsBxnotNX38VRFFREiqrVVl2RRqJdmhwEjV33SIRDQ1OoaQ00zZ/8vtZfHHiWoxLTKJKaLvJLCrz4Qd+eL3JWLdeNcxM/9ISX7j0hEe4vAlKqqcniPffm4yKfpNOoAA/T4uKndeqQIDjteZ5ZGQAdY+4UFVNx3KqIn0tLCBcPjfHcP6nANpaZzA1FYq6I0YswFiHVabtUvrEfb/uIMw/LNZv6zXLTuflKygr0yRygXh4OBT2MXOYndkqLL3v6eje2x5TAfE8fu8vx0lIvV04j3LPjW/H0eNkr49P/77voFVe1IeJpvLnSMicHbn92uW8iFpbO3KLUsQTfvWoU16UBczn4e1dh2jnQ3R+byPuq5eO3PS5HB+n8XOk3Gdn/th7LJacuAr8X8/Nj9P/AAAA//9LHJo3AAAABklEQVQDANfdDenkyGi8AAAAAElFTkSuQmCC';

export interface TrayPorts {
  readonly Tray: new (image: NativeImage) => Pick<Tray, 'setToolTip' | 'setContextMenu' | 'on' | 'destroy'>;
  readonly Menu: Pick<typeof Menu, 'buildFromTemplate'>;
  readonly image: NativeImage;
  readonly t: NativeText;
  readonly showWindow: () => void;
  /** Quits through before-quit, as the menu's Quit does: the core is disposed, runs stop. */
  readonly quit: () => void;
}

export interface InstalledTray {
  /** Rebuilds the menu (a new language). */
  refresh(): void;
  destroy(): void;
}

/**
 * The tray icon that keeps Familiar reachable with its window closed, so the heartbeat and the
 * scheduled tasks keep running: a click opens the window, the menu opens it or quits.
 */
export function installTray(ports: TrayPorts): InstalledTray {
  const tray = new ports.Tray(ports.image);
  const build = () => {
    tray.setToolTip(ports.t('tray.tooltip'));
    tray.setContextMenu(
      ports.Menu.buildFromTemplate([
        { label: ports.t('tray.open'), click: () => ports.showWindow() },
        { type: 'separator' },
        { label: ports.t('tray.quit'), click: () => ports.quit() },
      ]),
    );
  };
  build();
  tray.on('click', () => ports.showWindow());
  return { refresh: build, destroy: () => tray.destroy() };
}

/**
 * With a tray, closing the window hides it instead of quitting: only a quit (tray, menu, Cmd+Q)
 * stops the runs. Once a quit is under way the window closes for real.
 */
export function hideOnClose(app: Pick<App, 'on'>, window: Pick<BrowserWindow, 'on' | 'hide'>): void {
  let quitting = false;
  app.on('before-quit', () => {
    quitting = true;
  });
  window.on('close', (event: Event) => {
    if (quitting) return;
    event.preventDefault();
    window.hide();
  });
}

export interface ScheduleAttentionPorts {
  /** Is the window on screen and focused (then the page's own toast says it)? */
  isWindowFocused(): boolean;
  notify(title: string, body: string, onClick: () => void): void;
  /** The unseen count changed (the badge adds it to the approvals waiting). */
  unseenChanged(count: number): void;
  showWindow(): void;
}

/** A heartbeat that needs the user, a finished task, a task waiting for approval: a system notification. */
export function watchScheduleNotifications(
  events: Pick<EventHub, 'subscribe'>,
  ports: ScheduleAttentionPorts,
): () => void {
  return events.subscribe((name, payload) => {
    if (name === 'schedules.changed') {
      ports.unseenChanged((payload as EventPayload<'schedules.changed'>).unseen);
    } else if (name === 'schedules.notification') {
      if (ports.isWindowFocused()) return;
      const notification = payload as EventPayload<'schedules.notification'>;
      ports.notify(notification.title, notification.body.slice(0, 300), () => ports.showWindow());
    }
  });
}
