import type { SmokeSummary } from '../../main/front-doors/smoke/run-smoke-test';

/**
 * The summary `Familiar --smoke-test` prints: one JSON line on stdout. Electron or the system may
 * print other lines around it (GPU warnings on a virtual display), so the last line that parses as
 * a summary counts.
 */
export function readSmokeSummary(stdout: string): SmokeSummary | undefined {
  const lines = stdout.split(/\r?\n/).reverse();
  for (const line of lines) {
    if (!line.trim().startsWith('{')) continue;
    try {
      const value = JSON.parse(line) as Partial<SmokeSummary>;
      if (typeof value.ok === 'boolean' && Array.isArray(value.checks)) return value as SmokeSummary;
    } catch {
      // not the summary: keep looking
    }
  }
  return undefined;
}

/** The verdict on one run: passed only when the app exited 0 and its own summary says ok. */
export function judgeSmokeRun(
  exit: { code: number | null; signal: string | null; timedOut: boolean },
  summary: SmokeSummary | undefined,
): { passed: boolean; lines: string[] } {
  const lines: string[] = [];
  if (summary === undefined) lines.push('The app printed no smoke test summary.');
  else {
    lines.push(`facts: ${JSON.stringify(summary.facts)}, ${summary.durationMs} ms`);
    for (const check of summary.checks) lines.push(`${check.ok ? 'ok  ' : 'FAIL'} ${check.name}: ${check.detail}`);
  }
  if (exit.timedOut) lines.push('The app did not exit in time and was killed.');
  else lines.push(`exit code ${exit.code ?? `none (signal ${exit.signal})`}`);
  const passed = !exit.timedOut && exit.code === 0 && summary?.ok === true;
  return { passed, lines };
}
