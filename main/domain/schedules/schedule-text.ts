import { Cron } from 'croner';
import { err, ok } from '../../../shared/result';
import type { Result } from '../../../shared/result';

/**
 * A task's schedule as the user writes it: cron text (5 or 6 fields, croner's dialect) or a short
 * phrase ("every day at 9", "every weekday at 8:30", "every monday at 18:00", "every 15 minutes",
 * "every hour"). Phrases become cron text here, so one engine answers "when next" for both.
 */
export interface Schedule {
  /** The cron pattern the text means. */
  readonly cron: string;
  /** The latest run time at or before `at`, if any. */
  latestAtOrBefore(at: Date): Date | undefined;
  /** The next `count` run times after `at`. */
  next(count: number, at: Date): Date[];
}

const weekdays = ['sunday', 'monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday'];

/** "9", "9:30", "09:30", "9am", "9:30 pm", "21:00" as [hour, minute]. */
function timeOf(text: string): [number, number] | undefined {
  const match = /^(\d{1,2})(?::(\d{2}))?\s*(am|pm)?$/.exec(text.trim());
  if (match === null) return undefined;
  let hour = Number(match[1]);
  const minute = match[2] === undefined ? 0 : Number(match[2]);
  const half = match[3];
  if (half !== undefined) {
    if (hour < 1 || hour > 12) return undefined;
    hour = (hour % 12) + (half === 'pm' ? 12 : 0);
  }
  if (hour > 23 || minute > 59) return undefined;
  return [hour, minute];
}

/** A phrase as cron text, or undefined when the text is no phrase this understands. */
export function phraseToCron(text: string): string | undefined {
  const phrase = text.trim().toLowerCase().replace(/\s+/g, ' ');
  if (phrase === 'every minute') return '* * * * *';
  if (phrase === 'every hour') return '0 * * * *';
  const minutes = /^every (\d{1,2}) minutes?$/.exec(phrase);
  if (minutes !== null) {
    const n = Number(minutes[1]);
    return n >= 1 && n <= 59 ? `*/${n} * * * *` : undefined;
  }
  const hours = /^every (\d{1,2}) hours?$/.exec(phrase);
  if (hours !== null) {
    const n = Number(hours[1]);
    return n >= 1 && n <= 23 ? `0 */${n} * * *` : undefined;
  }
  const daily = /^every (day|weekday|weekend|sunday|monday|tuesday|wednesday|thursday|friday|saturday) at (.+)$/.exec(
    phrase,
  );
  if (daily === null) return undefined;
  const time = timeOf(daily[2] ?? '');
  if (time === undefined) return undefined;
  const [hour, minute] = time;
  const which = daily[1] ?? 'day';
  const days =
    which === 'day' ? '*' : which === 'weekday' ? '1-5' : which === 'weekend' ? '0,6' : String(weekdays.indexOf(which));
  return `${minute} ${hour} * * ${days}`;
}

/** The schedule a task's text means, or invalid_arguments saying what is wrong with it. */
export function parseSchedule(text: string): Result<Schedule> {
  const cron = phraseToCron(text) ?? text.trim();
  let pattern: Cron;
  try {
    pattern = new Cron(cron, { paused: true });
  } catch (error) {
    return err(
      'invalid_arguments',
      `"${text.slice(0, 100)}" is neither cron text nor a phrase like "every day at 9" (${error instanceof Error ? error.message : String(error)}).`,
    );
  }
  if (pattern.nextRun(new Date()) === null) return err('invalid_arguments', `"${text.slice(0, 100)}" never runs.`);
  return ok({
    cron,
    latestAtOrBefore: (at) => pattern.previousRuns(1, at)[0],
    next: (count, at) => pattern.nextRuns(count, at),
  });
}
