import type { HeartbeatSettings } from '../../../shared/schedule-settings';

const minutesOf = (time: string): number => {
  const [hours, minutes] = time.split(':').map(Number);
  return (hours ?? 0) * 60 + (minutes ?? 0);
};

/** Is this local time inside the active hours? A range past midnight (22:00–06:00) wraps; equal ends: all day. */
export function inActiveHours(settings: HeartbeatSettings, at: Date): boolean {
  const from = minutesOf(settings.activeFrom);
  const to = minutesOf(settings.activeTo);
  const now = at.getHours() * 60 + at.getMinutes();
  if (from === to) return true;
  return from < to ? now >= from && now < to : now >= from || now < to;
}

/** The heartbeat beats when it is on, inside the active hours, and an interval has passed since the last beat. */
export function heartbeatDue(settings: HeartbeatSettings, last: string | null, now: Date): boolean {
  if (!settings.enabled || !inActiveHours(settings, now)) return false;
  return last === null || now.getTime() - Date.parse(last) >= settings.intervalMinutes * 60_000;
}

/** When it will beat next (to the minute, within two days), for the settings page; null when off. */
export function nextHeartbeat(settings: HeartbeatSettings, last: string | null, now: Date): Date | null {
  if (!settings.enabled) return null;
  const earliest =
    last === null ? now.getTime() : Math.max(now.getTime(), Date.parse(last) + settings.intervalMinutes * 60_000);
  for (let at = earliest; at < now.getTime() + 2 * 24 * 60 * 60_000; at += 60_000) {
    if (inActiveHours(settings, new Date(at))) return new Date(at);
  }
  return null;
}
