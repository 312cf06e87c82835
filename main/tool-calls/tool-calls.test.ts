import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import { afterEach, describe, expect, it } from 'vitest';
import type { ApprovalRequest } from '../../shared/ipc/approvals';
import { defaultPolicy } from '../../shared/policy';
import { ok } from '../../shared/result';
import type { Result } from '../../shared/result';
import { createApprovalBroker } from '../domain/approvals/broker';
import { auditFileFor, createAuditLog, readAuditDay } from '../platform/audit/audit-log';
import { useTempDirs } from '../test-support/temp-dir';
import { pathlessTool, pathTool } from '../test-support/test-tools';
import { createTestToolCalls } from '../test-support/tool-calls-kit';
import { anyNumber, containing, createToolKit, matching } from '../test-support/tool-kit';
import type { ToolKit } from '../test-support/tool-kit';
import { defineTool } from '../tools/define-tool';
import type { AnyTool } from '../tools/define-tool';
import { readFileTool } from '../tools/read-file';
import { TOOL_RESULT_CAP_CHARS } from './cap-result';
import type { ToolCallsOptions } from './tool-calls';

const tempDir = useTempDirs();
let kit: ToolKit;
afterEach(() => kit.dispose());

const today = () => new Date().toISOString().slice(0, 10);
const auditLines = () => readAuditDay(join(kit.home, 'audit'), today());

/** A tool that waits until its signal aborts (or a long time), and reports whether it saw the abort. */
const seenAborts: string[] = [];
const slowTool = pathTool('slow_tool', 'read', z.object({ done: z.boolean() }), {
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

const throwingTool = pathlessTool('throwing_tool', z.object({}), () => Promise.reject(new Error('disk on fire')));

/** A write whose preview throws: the ask stage must turn that into a value, not an exception. */
const brokenPreviewTool = pathTool('broken_preview', 'write', z.object({ written: z.boolean() }), {
  prepare: () => Promise.reject(new Error('preview exploded')),
  run: () => Promise.resolve(ok({ written: true })),
});

/** A write whose preview never answers: only the guard around prepare() ends it. */
const hangingPreviewTool = pathTool('hanging_preview', 'write', z.object({ written: z.boolean() }), {
  prepare: () => new Promise(() => undefined),
  run: () => Promise.resolve(ok({ written: true })),
});

const brokenAccessTool = defineTool({
  name: 'broken_access',
  description: 'test',
  input: z.object({}),
  output: z.object({}),
  operations: ['read'],
  access: () => {
    throw new Error('no idea where');
  },
  run: () => Promise.resolve(ok({})),
});

const hugeTool = pathlessTool('huge_tool', z.object({ text: z.string() }), () =>
  Promise.resolve(ok({ text: 'x'.repeat(TOOL_RESULT_CAP_CHARS * 2) })),
);

const allTools = [
  readFileTool,
  slowTool,
  throwingTool,
  brokenPreviewTool,
  hangingPreviewTool,
  brokenAccessTool,
  hugeTool,
] as AnyTool[];

function pipeline(overrides: Partial<ToolCallsOptions> = {}, requests: ApprovalRequest[] = []) {
  const broker = createApprovalBroker({
    onRequested: (request) => requests.push(request),
    onResolved: () => undefined,
  });
  return createTestToolCalls(kit, {
    tools: allTools,
    broker,
    audit: createAuditLog({ dir: join(kit.home, 'audit') }),
    ...overrides,
  }).call;
}

describe('the tool-call pipeline: admit', () => {
  it('answers invalid_arguments naming each problem, the unknown keys and the parameters', async () => {
    kit = await createToolKit(tempDir);
    const result = await pipeline()('read_file', { path: 3, start: 1 });
    expect(result.ok || result.error.code).toBe('invalid_arguments');
    expect(result.ok || result.error.message).toMatch(
      /^Invalid arguments for read_file: path: .*expected string.*Unknown: start\. Parameters: path, encoding, start_line, end_line, start_page, end_page\.$/,
    );
  });

  it('rate-limits per conversation and says how long to wait', async () => {
    kit = await createToolKit(tempDir);
    let now = 1_000_000;
    const call = pipeline({ limits: { callsPerMinute: 3 }, now: () => now });
    await writeFile(join(kit.workspace, 'a.txt'), 'x');
    for (let i = 0; i < 3; i += 1) expect((await call('read_file', { path: 'a.txt' }, 'busy')).ok).toBe(true);
    const limited = await call('read_file', { path: 'a.txt' }, 'busy');
    expect(limited.ok || limited.error).toMatchObject({
      code: 'rate_limited',
      message: matching(/Wait 60 s/),
      details: { retry_after_ms: 60_000 },
    });
    expect((await call('read_file', { path: 'a.txt' }, 'other')).ok).toBe(true);
    now += 60_001;
    expect((await call('read_file', { path: 'a.txt' }, 'busy')).ok).toBe(true);
  });
});

describe('the tool-call pipeline: record', () => {
  it('writes one audit line per call, refusals included, with paths, outcome, bytes and duration', async () => {
    kit = await createToolKit(tempDir);
    const secretsDenied = () => {
      const policy = defaultPolicy();
      const deny = { pattern: 'secret/**', decisions: { read: 'deny' as const }, memory: false, note: '' };
      return { ...policy, rules: [deny, ...policy.rules] };
    };
    const call = pipeline({ policy: secretsDenied });
    await writeFile(join(kit.workspace, 'a.txt'), 'hello');
    await call('read_file', { path: 'a.txt' });
    await call('read_file', { path: 'missing.txt' });
    await call('read_file', { nope: true });
    await call('no_such_tool', {});
    await call('read_file', { path: 'secret/key.txt' });
    expect(await auditLines()).toEqual([
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
      containing({ tool: 'no_such_tool', paths: [], outcome: 'unknown_tool' }),
      containing({ tool: 'read_file', paths: ['secret/key.txt'], outcome: 'permission_denied' }),
    ]);
    expect(
      (await readFile(auditFileFor(join(kit.home, 'audit'), new Date().toISOString()), 'utf8')).split('\n'),
    ).toHaveLength(6);
  });

  it('caps a runaway result once, before the transcript or the MCP client sees it', async () => {
    kit = await createToolKit(tempDir);
    const result = await pipeline()('huge_tool', {});
    expect(result.ok && typeof result.value === 'string' && result.value.length).toBeLessThan(
      TOOL_RESULT_CAP_CHARS + 200,
    );
    expect(result.ok && String(result.value)).toMatch(/\[Truncated: the JSON result had \d+ more characters\.\]$/);
  });
});

describe('the tool-call pipeline: run', () => {
  it('ends a slow call with timeout, aborts the signal the tool got, and records it', async () => {
    kit = await createToolKit(tempDir);
    const result = await pipeline({ limits: { timeoutMs: 50 } })('slow_tool', { path: 'slow-1' });
    expect(result.ok || result.error).toMatchObject({
      code: 'timeout',
      message: matching(/did not finish within 0\.1 s/),
    });
    expect(seenAborts).toContain('slow-1');
    expect(await auditLines()).toEqual([containing({ tool: 'slow_tool', outcome: 'timeout' })]);
  });

  it('answers aborted when the user stops the turn, and aborts the tool', async () => {
    kit = await createToolKit(tempDir);
    const call = pipeline();
    const stop = new AbortController();
    const running = call('slow_tool', { path: 'slow-2' }, 'c1', stop.signal);
    setTimeout(() => stop.abort(), 20);
    expect(await running).toMatchObject({ ok: false, error: { code: 'aborted' } });
    expect(seenAborts).toContain('slow-2');
    expect(await call('slow_tool', { path: 'never' }, 'c1', stop.signal)).toMatchObject({
      ok: false,
      error: { code: 'aborted' },
    });
  });

  it('turns a throwing tool into internal_error and logs it', async () => {
    kit = await createToolKit(tempDir);
    const logged: string[] = [];
    const call = pipeline({ logger: { info: () => {}, warn: () => {}, error: (message) => logged.push(message) } });
    const result = await call('throwing_tool', {});
    expect(result.ok || result.error).toMatchObject({ code: 'internal_error', message: matching(/disk on fire/) });
    expect(logged).toEqual(['tool throwing_tool threw']);
  });

  it('turns a throw anywhere in the pipeline (here: access()) into internal_error, audited', async () => {
    kit = await createToolKit(tempDir);
    const result = await pipeline()('broken_access', {});
    expect(result.ok || result.error).toMatchObject({ code: 'internal_error', message: matching(/no idea where/) });
    expect(await auditLines()).toEqual([containing({ tool: 'broken_access', outcome: 'internal_error' })]);
  });
});

describe('the tool-call pipeline: ask', () => {
  it('answers a throwing preview with internal_error and never bothers the user', async () => {
    kit = await createToolKit(tempDir);
    const requests: ApprovalRequest[] = [];
    const result = await pipeline({}, requests)('broken_preview', { path: 'a.txt' });
    expect(result.ok || result.error).toMatchObject({ code: 'internal_error', message: matching(/preview exploded/) });
    expect(requests).toEqual([]);
  });

  it('ends a preview that never answers with timeout, under the same limit as a run', async () => {
    kit = await createToolKit(tempDir);
    const requests: ApprovalRequest[] = [];
    const result = await pipeline({ limits: { timeoutMs: 50 } }, requests)('hanging_preview', { path: 'a.txt' });
    expect(result.ok || result.error.code).toBe('timeout');
    expect(requests).toEqual([]);
  });

  it('refuses with approval_required when nobody can be asked, and lets --approve through', async () => {
    kit = await createToolKit(tempDir);
    const refused = await pipeline({ approvalMode: 'refuse' })('broken_preview', { path: 'a.txt' });
    expect(refused.ok || refused.error.code).toBe('approval_required');
    const trusted = await pipeline({ approvalMode: 'approve-all' })('broken_preview', { path: 'a.txt' });
    expect(trusted).toEqual({ ok: true, value: { written: true } });
  });
});
