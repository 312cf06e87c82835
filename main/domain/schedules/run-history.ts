import { join } from 'node:path';
import { z } from 'zod';
import { scheduleRunSchema } from '../../../shared/ipc/schedules';
import type { ScheduleRun } from '../../../shared/ipc/schedules';
import { moveDataFile } from '../../platform/storage/data-files';
import { ensureFolder } from '../../platform/storage/folders';
import { readJsonFile, writeJsonFile } from '../../platform/storage/json-file';
import { appendJsonLines, readJsonLines } from '../../platform/storage/jsonl-file';

/** How many runs the history keeps in view (the file is rewritten to this many when it grows past twice). */
const KEPT_RUNS = 500;

/**
 * What the scheduler handled last, so a restart knows which runs it missed: per task the schedule
 * slot it last ran (or skipped), and when the heartbeat last beat.
 */
export const scheduleMarksSchema = z.object({
  tasks: z.record(z.string(), z.iso.datetime()).default({}),
  heartbeat: z.iso.datetime().nullable().default(null),
});
export type ScheduleMarks = z.infer<typeof scheduleMarksSchema>;

export interface RunHistory {
  /** Writes a run as it is now (started, then finished: the later line wins). */
  save(run: ScheduleRun): Promise<void>;
  /** Newest first. A run still 'running' that this process did not start was cut short by a quit. */
  list(): Promise<ScheduleRun[]>;
  readMarks(): Promise<ScheduleMarks>;
  writeMarks(marks: ScheduleMarks): Promise<void>;
}

/** The run history as JSON lines in <home>/schedules/runs.jsonl, and the marks in marks.json. */
export async function openRunHistory(dir: string): Promise<RunHistory> {
  await ensureFolder(dir, 0o700);
  const runsFile = join(dir, 'runs.jsonl');
  const marksFile = join(dir, 'marks.json');
  const byId = new Map<string, ScheduleRun>();
  // Lines written by this process; anything older still 'running' was interrupted.
  const mine = new Set<string>();
  let lines = 0;
  for (const run of (await readJsonLines(runsFile, scheduleRunSchema)).records) {
    byId.delete(run.id);
    byId.set(run.id, run);
    lines += 1;
  }
  let writes = Promise.resolve();
  const newestFirst = () => [...byId.values()].sort((a, b) => b.startedAt.localeCompare(a.startedAt));
  const view = (run: ScheduleRun): ScheduleRun =>
    run.status === 'running' && !mine.has(run.id) ? { ...run, status: 'interrupted', finishedAt: null } : run;

  return {
    save(run) {
      mine.add(run.id);
      byId.delete(run.id);
      byId.set(run.id, run);
      lines += 1;
      // One writer at a time, in order: a finished line never lands before its started line.
      writes = writes.then(async () => {
        if (lines > 2 * KEPT_RUNS) {
          const kept = newestFirst().slice(0, KEPT_RUNS).reverse();
          for (const id of [...byId.keys()]) if (!kept.some((candidate) => candidate.id === id)) byId.delete(id);
          lines = kept.length;
          await writeJsonLinesFresh(runsFile, kept);
          return;
        }
        await appendJsonLines(runsFile, [run]);
      });
      return writes;
    },
    list: () => Promise.resolve(newestFirst().slice(0, KEPT_RUNS).map(view)),
    async readMarks() {
      const stored = await readJsonFile(marksFile, scheduleMarksSchema);
      return stored.state === 'valid' ? stored.value : { tasks: {}, heartbeat: null };
    },
    writeMarks: (marks) => writeJsonFile(marksFile, scheduleMarksSchema, marks),
  };
}

/** Replaces the runs file with these runs (the history trimmed). */
async function writeJsonLinesFresh(file: string, runs: readonly ScheduleRun[]): Promise<void> {
  const fresh = `${file}.fresh`;
  // A .fresh file a crash left behind only repeats runs: the later line of an id wins on reading.
  await appendJsonLines(fresh, runs);
  await moveDataFile(fresh, file);
}
