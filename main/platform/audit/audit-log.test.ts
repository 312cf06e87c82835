import { pbkdf2 } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { appendFile, readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useTempDirs } from '../../test-support/temp-dir';
import { auditFileFor, createAuditLog, readAuditDay } from './audit-log';

const tempDir = useTempDirs();

const entry = (i: number, time = '2026-03-01T10:00:00.000Z') => ({
  time,
  conversation: 'c',
  tool: 'read_file',
  paths: [`f${i}.txt`],
  outcome: 'ok' as const,
  duration_ms: i,
});

describe('the audit log', () => {
  it('appends whole lines in call order, one file per UTC day, private to the user', async () => {
    const dir = join(await tempDir(), 'audit');
    const log = createAuditLog({ dir });
    await Promise.all(Array.from({ length: 50 }, (_, i) => log.record(entry(i))));
    await log.record(entry(99, '2026-03-02T00:00:01.000Z'));
    const day = await readAuditDay(dir, '2026-03-01');
    expect(day.map((e) => e.duration_ms)).toEqual(Array.from({ length: 50 }, (_, i) => i));
    expect(await readAuditDay(dir, '2026-03-02')).toEqual([entry(99, '2026-03-02T00:00:01.000Z')]);
    expect((await stat(auditFileFor(dir, '2026-03-01T')).then((s) => s.mode)) & 0o777).toBe(0o600);
    expect((await stat(dir)).mode & 0o777).toBe(0o700);
  });

  it('skips lines that do not parse, and never throws when it cannot write', async () => {
    const dir = join(await tempDir(), 'audit');
    const log = createAuditLog({ dir });
    await log.record(entry(1));
    await appendFile(auditFileFor(dir, entry(1).time), 'garbage\n{"time":1}\n');
    expect(await readAuditDay(dir, '2026-03-01')).toHaveLength(1);
    const errors: string[] = [];
    // A file where the folder should be: every write fails.
    const blocked = join(await tempDir(), 'file');
    await appendFile(blocked, '');
    const broken = createAuditLog({
      dir: join(blocked, 'audit'),
      logger: { info: () => {}, warn: () => {}, error: (message) => errors.push(message) },
    });
    await expect(broken.record(entry(2))).resolves.toBeUndefined();
    expect(errors).toEqual(['could not write the audit log']);
    expect(await readFile(auditFileFor(dir, entry(1).time), 'utf8')).toContain('f1.txt');
  });

  it("writes its line before answering without queueing behind other work in libuv's thread pool", async () => {
    const dir = join(await tempDir(), 'audit');
    const log = createAuditLog({ dir });
    // Every thread of the pool busy for a while (as a background index build keeps it): a write
    // through the pool would wait until these are done.
    let poolFreed = false;
    const busy = Array.from(
      { length: 16 },
      () => new Promise<void>((done) => pbkdf2('x', 'y', 400_000, 32, 'sha256', () => ((poolFreed = true), done()))),
    );
    await log.record(entry(7));
    expect(poolFreed).toBe(false);
    expect(readFileSync(auditFileFor(dir, entry(7).time), 'utf8')).toContain('f7.txt');
    await Promise.all(busy);
  });
});
