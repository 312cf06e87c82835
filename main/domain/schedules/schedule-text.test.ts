import { describe, expect, it } from 'vitest';
import { inActiveHours, nextHeartbeat } from './heartbeat-window';
import { parseSchedule, phraseToCron } from './schedule-text';

describe('schedule text', () => {
  it('turns the phrases people write into cron text', () => {
    expect(phraseToCron('every day at 9')).toBe('0 9 * * *');
    expect(phraseToCron('Every  weekday at 8:30')).toBe('30 8 * * 1-5');
    expect(phraseToCron('every monday at 6pm')).toBe('0 18 * * 1');
    expect(phraseToCron('every weekend at 10:15')).toBe('15 10 * * 0,6');
    expect(phraseToCron('every 15 minutes')).toBe('*/15 * * * *');
    expect(phraseToCron('every 2 hours')).toBe('0 */2 * * *');
    expect(phraseToCron('every day at 25')).toBeUndefined();
    expect(phraseToCron('0 9 * * *')).toBeUndefined();
  });

  it('answers the latest slot at or before a time and the next ones after it, for cron text too', () => {
    const schedule = parseSchedule('0 9 * * 1-5');
    if (!schedule.ok) throw new Error(schedule.error.message);
    // 7 March 2026 is a Saturday: the latest weekday 9:00 is Friday's.
    expect(schedule.value.latestAtOrBefore(new Date(2026, 2, 7, 12))).toEqual(new Date(2026, 2, 6, 9));
    expect(schedule.value.next(2, new Date(2026, 2, 7, 12))).toEqual([
      new Date(2026, 2, 9, 9),
      new Date(2026, 2, 10, 9),
    ]);
  });

  it('refuses text that is neither, saying so', () => {
    const parsed = parseSchedule('whenever you like');
    expect(parsed).toMatchObject({ ok: false, error: { code: 'invalid_arguments' } });
  });
});

describe('the heartbeat window', () => {
  const settings = { enabled: true, intervalMinutes: 30, activeFrom: '22:00', activeTo: '06:00' };

  it('wraps past midnight', () => {
    expect(inActiveHours(settings, new Date(2026, 2, 2, 23, 30))).toBe(true);
    expect(inActiveHours(settings, new Date(2026, 2, 2, 5, 59))).toBe(true);
    expect(inActiveHours(settings, new Date(2026, 2, 2, 12))).toBe(false);
  });

  it('says when it beats next: after the interval, inside the hours, never when off', () => {
    const last = new Date(2026, 2, 2, 5, 50).toISOString();
    expect(nextHeartbeat(settings, last, new Date(2026, 2, 2, 5, 55))).toEqual(new Date(2026, 2, 2, 22));
    expect(nextHeartbeat({ ...settings, enabled: false }, null, new Date(2026, 2, 2, 5, 55))).toBeNull();
  });
});
