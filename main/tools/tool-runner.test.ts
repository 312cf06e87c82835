import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import { afterEach, describe, expect, it } from 'vitest';
import { ok } from '../../shared/result';
import type { Result } from '../../shared/result';
import { auditFileFor, createAuditLog, readAuditDay } from '../audit/audit-log';
import { useTempDirs } from '../test-support/temp-dir';
import { defineTool } from './define-tool';
import { readFileTool } from './read-file';
import { anyNumber, containing, createToolKit, matching } from './test-kit';
import type { ToolKit } from './test-kit';
import { createToolRunner } from './tool-runner';

const tempDir = useTempDirs();
let kit: ToolKit;
afterEach(() => kit.dispose());

const today = () => new Date().toISOString().slice(0, 10);

/** A tool that waits until its signal aborts (or a long time), and reports whether it saw the abort. */
const seenAborts: string[] = [];
const slowTool = defineTool({
  name: 'slow_tool',
  description: 'test',
  input: z.object({ path: z.string() }),
  operations: ['read'],
  access: (args) => [{ operation: 'read', path: args.path }],
  run: (args, ctx) =>
    new Promise<Result<{ done: boolean }>>((resolve) => {
      const timer = setTimeout(() => resolve(ok({ done: true })), 10_000);
      ctx.signal.addEventListener('abort', () => {
        clearTimeout(timer);
        seenAborts.push(args.path);
        resolve(ok({ done: false }));
      });
    }),
});

const throwingTool = defineTool({
  name: 'throwing_tool',
  description: 'test',
  input: z.object({}),
  operations: [],
  access: () => [],
  run: () => Promise.reject(new Error('disk on fire')),
});

describe('the tool runner', () => {
  it('answers invalid_arguments naming each problem, the unknown keys and the parameters', async () => {
    kit = await createToolKit(tempDir);
    const result = await kit.call(readFileTool, { path: 3, start: 1 } as never);
    expect(result.ok || result.error.code).toBe('invalid_arguments');
    expect(result.ok || result.error.message).toMatch(
      /^Invalid arguments for read_file: path: .*expected string.*Unknown: start\. Parameters: path, encoding, start_line, end_line\.$/,
    );
  });

  it('writes one audit line per call, with paths, outcome, bytes and duration', async () => {
    kit = await createToolKit(tempDir);
    await writeFile(join(kit.workspace, 'a.txt'), 'hello');
    await kit.call(readFileTool, { path: 'a.txt' });
    await kit.call(readFileTool, { path: 'missing.txt' });
    await kit.call(readFileTool, { nope: true } as never);
    const entries = await readAuditDay(join(kit.home, 'audit'), today());
    expect(entries).toEqual([
      {
        time: matching(/^\d{4}-\d\d-\d\dT/),
        conversation: 'c1',
        tool: 'read_file',
        paths: ['a.txt'],
        outcome: 'ok',
        bytes: 5,
        duration_ms: anyNumber(),
      },
      containing({ tool: 'read_file', paths: ['missing.txt'], outcome: 'file_not_found' }),
      containing({ tool: 'read_file', paths: [], outcome: 'invalid_arguments' }),
    ]);
    expect(
      (await readFile(auditFileFor(join(kit.home, 'audit'), new Date().toISOString()), 'utf8')).split('\n'),
    ).toHaveLength(4);
  });

  it('records calls the registry refused itself in the same log', async () => {
    kit = await createToolKit(tempDir);
    await kit.runner.recordRefusal({
      conversationId: 'c9',
      tool: 'write_file',
      paths: ['SOUL.md'],
      error: { code: 'user_rejected', message: 'no' },
    });
    expect(await readAuditDay(join(kit.home, 'audit'), today())).toEqual([
      containing({
        conversation: 'c9',
        tool: 'write_file',
        paths: ['SOUL.md'],
        outcome: 'user_rejected',
        duration_ms: 0,
      }),
    ]);
  });

  it('rate-limits per conversation and says how long to wait', async () => {
    kit = await createToolKit(tempDir);
    let now = 1_000_000;
    const runner = createToolRunner({
      audit: createAuditLog({ dir: join(kit.home, 'audit') }),
      limits: { callsPerMinute: 3 },
      now: () => now,
    });
    await writeFile(join(kit.workspace, 'a.txt'), 'x');
    const call = (conversationId: string) => runner.run(readFileTool, { path: 'a.txt' }, kit.ctx(conversationId));
    for (let i = 0; i < 3; i += 1) expect((await call('busy')).ok).toBe(true);
    const limited = await call('busy');
    expect(limited.ok || limited.error).toMatchObject({
      code: 'rate_limited',
      message: matching(/Wait 60 s/),
      details: { retry_after_ms: 60_000 },
    });
    expect((await call('other')).ok).toBe(true);
    now += 60_001;
    expect((await call('busy')).ok).toBe(true);
  });

  it('ends a slow call with timeout and aborts the signal the tool got', async () => {
    kit = await createToolKit(tempDir);
    const runner = createToolRunner({
      audit: createAuditLog({ dir: join(kit.home, 'audit') }),
      limits: { timeoutMs: 50 },
    });
    const result = await runner.run(slowTool, { path: 'slow-1' }, kit.ctx());
    expect(result.ok || result.error).toMatchObject({
      code: 'timeout',
      message: matching(/did not finish within 0\.1 s/),
    });
    expect(seenAborts).toContain('slow-1');
    expect(await readAuditDay(join(kit.home, 'audit'), today())).toEqual([
      containing({ tool: 'slow_tool', outcome: 'timeout' }),
    ]);
  });

  it('answers aborted when the user stops the turn, and aborts the tool', async () => {
    kit = await createToolKit(tempDir);
    const stop = new AbortController();
    const running = kit.runner.run(slowTool, { path: 'slow-2' }, kit.ctx('c1', stop.signal));
    setTimeout(() => stop.abort(), 20);
    expect(await running).toMatchObject({ ok: false, error: { code: 'aborted' } });
    expect(seenAborts).toContain('slow-2');
    expect(await kit.runner.run(slowTool, { path: 'never' }, kit.ctx('c1', stop.signal))).toMatchObject({
      ok: false,
      error: { code: 'aborted' },
    });
  });

  it('turns a throwing tool into internal_error and logs it', async () => {
    kit = await createToolKit(tempDir);
    const logged: string[] = [];
    const runner = createToolRunner({
      audit: createAuditLog({ dir: join(kit.home, 'audit') }),
      logger: { info: () => {}, warn: () => {}, error: (message) => logged.push(message) },
    });
    const result = await runner.run(throwingTool, {}, kit.ctx());
    expect(result.ok || result.error).toMatchObject({ code: 'internal_error', message: matching(/disk on fire/) });
    expect(logged).toEqual(['tool throwing_tool threw']);
  });

  it('prepares previews without an audit line or a rate-limit count', async () => {
    kit = await createToolKit(tempDir);
    const preview = await kit.runner.prepare(readFileTool, { path: 'a.txt' }, kit.ctx());
    expect(preview).toEqual({ ok: true, value: { summary: 'read_file a.txt' } });
    expect(await readAuditDay(join(kit.home, 'audit'), today())).toEqual([]);
  });
});
