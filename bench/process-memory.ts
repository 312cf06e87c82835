import { readFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';

/**
 * Another process's memory as Linux reports it (/proc/<pid>/status: VmRSS now, all its threads,
 * worker threads included) and its CPU time (/proc/<pid>/stat), sampled every `everyMs` so a phase's
 * peak is seen even when it lasts a moment (issue 32 item 7: steady and peak RSS per index state).
 */
export class ProcessMemory {
  #peakKb = 0;
  #timer: NodeJS.Timeout | undefined;

  constructor(
    readonly pid: number,
    everyMs = 20,
  ) {
    this.#timer = setInterval(() => this.sample(), everyMs);
  }

  /** VmRSS now in kB (0 once the process is gone). */
  rssKb(): number {
    const kb = statusField(this.pid, 'VmRSS');
    this.#peakKb = Math.max(this.#peakKb, kb);
    return kb;
  }

  sample(): void {
    this.rssKb();
  }

  /** The highest RSS sampled since the last call (a phase's peak), and starts the next phase. */
  takePeakKb(): number {
    const peak = Math.max(this.#peakKb, this.rssKb());
    this.#peakKb = 0;
    return peak;
  }

  /** The kernel's own high-water mark over the whole life of the process. */
  highWaterKb(): number {
    return statusField(this.pid, 'VmHWM');
  }

  /** User + system CPU time of every thread so far, in clock ticks. */
  cpuTicks(): number {
    try {
      const stat = readFileSync(`/proc/${this.pid}/stat`, 'utf8');
      // Fields after the command name (which may hold spaces), from field 3 on: utime is field 14.
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      return Number(fields[11]) + Number(fields[12]);
    } catch {
      return 0;
    }
  }

  /**
   * Waits until the process has used at most one tick of CPU time over `quietMs` (its background work
   * over), or `limitMs` passed; answers how long it waited.
   */
  async quiet(quietMs = 1000, limitMs = 180_000): Promise<number> {
    const start = performance.now();
    let ticks = this.cpuTicks();
    let since = performance.now();
    while (performance.now() - start < limitMs) {
      await sleep(100);
      const now = this.cpuTicks();
      if (now - ticks > 1) {
        ticks = now;
        since = performance.now();
      } else if (performance.now() - since >= quietMs) break;
    }
    return performance.now() - start;
  }

  stop(): void {
    clearInterval(this.#timer);
    this.#timer = undefined;
  }
}

function statusField(pid: number, field: string): number {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const match = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status);
    return match === null ? 0 : Number(match[1]);
  } catch {
    return 0;
  }
}
