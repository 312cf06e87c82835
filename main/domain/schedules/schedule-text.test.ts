import { describe, expect, it } from 'vitest';
import { inActiveHours, nextHeartbeat } from './heartbeat-window';
import { parseSchedule, phraseToCron } from './schedule-text';

describe('schedule text', () => {
  it('turns the phrases people write into cron text', () => {
    const cronOf: Record<string, string | undefined> = {
      'every day at 9': '0 9 * * *',
      'Every  weekday at 8:30': '30 8 * * 1-5',
      'every monday at 6pm': '0 18 * * 1',
      'every weekend at 10:15': '15 10 * * 0,6',
      'every 15 minutes': '*/15 * * * *',
      'every 2 hours': '0 */2 * * *',
      // No such hour; and cron text is not a phrase (parseSchedule takes it as it is).
      'every day at 25': undefined,
      '0 9 * * *': undefined,
    };
    for (const [phrase, cron] of Object.entries(cronOf)) expect(phraseToCron(phrase), phrase).toBe(cron);
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
