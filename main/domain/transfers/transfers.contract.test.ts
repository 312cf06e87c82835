import { access, appendFile, readdir, readFile, rename, symlink, unlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { reply, startScriptedLlmServer } from '../../../e2e/fixtures/scripted-llm-server';
import type { ScriptedLlmServer } from '../../../e2e/fixtures/scripted-llm-server';
import type { ChatEvent } from '../../../shared/ipc/chat';
import { chatEventSchema } from '../../../shared/ipc/chat';
import type { DownloadOffer } from '../../../shared/ipc/transfers';
import { downloadOfferSchema, MAX_FETCHED_DOWNLOAD_BYTES } from '../../../shared/ipc/transfers';
import type { Core } from '../../core/create-core';
import type { CallContext } from '../../platform/ipc/dispatcher';
import { useTempDirs } from '../../test-support/temp-dir';
import { createTestCore } from '../../test-support/test-core';

/** Uploads and downloads through the contract, as the page drives them: the real core, no Electron. */
const tempDir = useTempDirs();
const ctx: CallContext = { transport: 'direct', clientId: 'test' };
const cores: Core[] = [];
let server: ScriptedLlmServer | undefined;
afterEach(async () => {
  await Promise.all(cores.splice(0).map((core) => core.dispose('test over')));
  await server?.close();
  server = undefined;
});

async function start(options: { chooseSavePath?: (name: string) => Promise<string | null> } = {}) {
  const home = await tempDir();
  const workspace = await tempDir();
  const core = await createTestCore({
    home,
    workspace,
    chooseSavePath: options.chooseSavePath,
  });
  cores.push(core);
  const offers: DownloadOffer[] = [];
  const events: { name: string; payload: unknown }[] = [];
  const chatEvents: ChatEvent[] = [];
  core.events.subscribe((name, payload) => {
    events.push({ name, payload });
    if (name === 'transfers.offered') offers.push(downloadOfferSchema.parse(payload));
    if (name === 'chat.event') chatEvents.push(chatEventSchema.parse(payload));
  });
  const dispatch = (name: string, input: unknown) => core.dispatch(name, input, ctx);
  const execute = (name: string, args: unknown) =>
    core.assistant.toolCalls.execute(
      { conversationId: 'c1', toolCallId: 't1', name, args },
      new AbortController().signal,
    );
  return { core, workspace, offers, events, chatEvents, dispatch, execute };
}

const base64 = (text: string | Buffer) => Buffer.from(text).toString('base64');

describe('transfers.upload', () => {
  it('copies a dropped file into uploads/, never overwriting, and tells the page what arrived', async () => {
    const run = await start();
    const first = await run.dispatch('transfers.upload', {
      name: 'report.txt',
      data: base64('one'),
      conversationId: 'c1',
    });
    const second = await run.dispatch('transfers.upload', { name: 'report.txt', data: base64('two') });
    expect(first).toMatchObject({ ok: true, value: { name: 'report.txt', path: 'uploads/report.txt', bytes: 3 } });
    expect(second).toMatchObject({ ok: true, value: { name: 'report (1).txt', path: 'uploads/report (1).txt' } });
    expect(await readFile(join(run.workspace, 'uploads', 'report.txt'), 'utf8')).toBe('one');
    expect(await readFile(join(run.workspace, 'uploads', 'report (1).txt'), 'utf8')).toBe('two');
    expect((first as { value: { note: string } }).value.note).toMatch(/uploaded 'report\.txt'.*uploads\/report\.txt/);
    expect(run.events.filter((event) => event.name === 'transfers.uploaded').map((event) => event.payload)).toEqual([
      expect.objectContaining({ path: 'uploads/report.txt', conversationId: 'c1' }),
      expect.objectContaining({ path: 'uploads/report (1).txt' }),
    ]);
  });

  it('refuses ../x, a;rm -rf, an 11 MB file and binary content; the settings allow more', async () => {
    const run = await start();
    const refused = async (name: string, data: string) => {
      const result = await run.dispatch('transfers.upload', { name, data });
      expect(result.ok, name).toBe(false);
      return (result as { error: { code: string } }).error.code;
    };
    expect(await refused('../x', base64('x'))).toBe('invalid_path');
    expect(await refused('a;rm -rf', base64('x'))).toBe('invalid_path');
    expect(await refused('big.txt', base64(Buffer.alloc(11 * 1024 * 1024, 0x61)))).toBe('file_too_large');
    expect(await refused('image.png', base64(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 0, 0, 0x0d])))).toBe(
      'binary_file',
    );
    expect(await refused('not base64', '***')).toBe('invalid_payload');
    await expect(readdir(join(run.workspace, 'uploads'))).rejects.toThrow();
    await run.dispatch('settings.update', { transfers: { maxUploadMB: 12, allowNonText: true } });
    expect(
      await run.dispatch('transfers.upload', { name: 'big.txt', data: base64(Buffer.alloc(11 * 1024 * 1024, 0x61)) }),
    ).toMatchObject({
      ok: true,
    });
    expect(
      await run.dispatch('transfers.upload', { name: 'image.png', data: base64(Buffer.from([0x89, 0, 1])) }),
    ).toMatchObject({
      ok: true,
    });
  });

  it('file_upload, the tool form, applies the same checks and asks before writing', async () => {
    const run = await start();
    for (const name of ['../x', 'a;rm -rf']) {
      expect(await run.execute('file_upload', { name, content: 'x' })).toMatchObject({
        ok: false,
        error: { code: 'invalid_path' },
      });
    }
    const big = 'a'.repeat(11 * 1024 * 1024);
    expect(await run.execute('file_upload', { name: 'big.txt', content: big })).toMatchObject({
      ok: false,
      error: { code: 'file_too_large' },
    });
    const asked = vi.waitFor(() => {
      const request = run.events.find((event) => event.name === 'approvals.requested');
      if (request === undefined) throw new Error('not yet');
      return request.payload as { id: string; summary: string; after: string };
    });
    const saving = run.execute('file_upload', { name: 'notes.md', content: '# Notes\n' });
    const request = await asked;
    expect(request).toMatchObject({ summary: 'Save the attachment notes.md into uploads/', after: '# Notes\n' });
    await run.dispatch('approvals.answer', { id: request.id, decision: 'approve' });
    expect(await saving).toMatchObject({ ok: true, value: { path: 'uploads/notes.md', bytes: 8 } });
  });
});

describe('file_download', () => {
  it('offers the file, the page fetches its bytes and answers: the tool returns offered and saved', async () => {
    const run = await start();
    await writeFile(join(run.workspace, 'result.csv'), 'a,b\n1,2\n');
    const downloading = run.execute('file_download', { path: 'result.csv' });
    const offer = await vi.waitFor(() => run.offers[0] ?? Promise.reject(new Error('no offer yet')));
    expect(offer).toMatchObject({ conversationId: 'c1', path: 'result.csv', name: 'result.csv', bytes: 8 });
    expect(await run.dispatch('transfers.pending', {})).toMatchObject({ ok: true, value: { offers: [offer] } });
    const fetched = await run.dispatch('transfers.fetch', { id: offer.id });
    expect(fetched).toMatchObject({ ok: true, value: { name: 'result.csv', data: base64('a,b\n1,2\n'), bytes: 8 } });
    // Browser mode has no native dialog.
    expect(await run.dispatch('transfers.saveAs', { id: offer.id })).toMatchObject({
      ok: false,
      error: { code: 'not_found' },
    });
    expect(await run.dispatch('transfers.answer', { id: offer.id, saved: true })).toMatchObject({ ok: true });
    expect(await downloading).toEqual({ ok: true, value: { path: 'result.csv', offered: true, saved: true } });
    expect(run.events.some((event) => event.name === 'transfers.resolved')).toBe(true);
    expect(await run.dispatch('transfers.answer', { id: offer.id, saved: true })).toMatchObject({
      ok: false,
      error: { code: 'not_found' },
    });
  });

  it('desktop: the native save dialog copies the file; dismissing answers saved: false', async () => {
    const target = join(await tempDir(), 'saved.csv');
    const run = await start({ chooseSavePath: (name) => Promise.resolve(name === 'data.csv' ? target : null) });
    await writeFile(join(run.workspace, 'data.csv'), 'x\n');
    const saving = run.execute('file_download', { path: 'data.csv' });
    const offer = await vi.waitFor(() => run.offers[0] ?? Promise.reject(new Error('no offer yet')));
    expect(await run.dispatch('transfers.saveAs', { id: offer.id })).toEqual({
      ok: true,
      value: { saved: true, path: target },
    });
    expect(await saving).toMatchObject({ ok: true, value: { offered: true, saved: true, location: target } });
    expect(await readFile(target, 'utf8')).toBe('x\n');

    const dismissed = run.execute('file_download', { path: 'data.csv' });
    const second = await vi.waitFor(() => run.offers[1] ?? Promise.reject(new Error('no offer yet')));
    await run.dispatch('transfers.answer', { id: second.id, saved: false });
    expect(await dismissed).toMatchObject({
      ok: true,
      value: { offered: true, saved: false, reason: 'The user dismissed it.' },
    });
  });

  it('fetch checks the file again: grown past the cap, written to or replaced since the offer is refused', async () => {
    const run = await start();
    const offerOf = async (path: string, index: number) => {
      const downloading = run.execute('file_download', { path });
      const offer = await vi.waitFor(() => run.offers[index] ?? Promise.reject(new Error('no offer yet')));
      return { offer, downloading };
    };
    const fetchCode = async (id: string) => {
      const fetched = await run.dispatch('transfers.fetch', { id });
      return fetched.ok ? 'ok' : fetched.error.code;
    };
    await writeFile(join(run.workspace, 'grows.log'), 'small\n');
    const grows = await offerOf('grows.log', 0);
    // The same inode, now past what a browser download carries: refused before it is read.
    await writeFile(join(run.workspace, 'grows.log'), Buffer.alloc(MAX_FETCHED_DOWNLOAD_BYTES + 1, 0x61));
    expect(await fetchCode(grows.offer.id)).toBe('file_too_large');

    await writeFile(join(run.workspace, 'appended.log'), 'one\n');
    const appended = await offerOf('appended.log', 1);
    await appendFile(join(run.workspace, 'appended.log'), 'two\n');
    expect(await fetchCode(appended.offer.id)).toBe('concurrent_modification');

    await writeFile(join(run.workspace, 'report.csv'), 'a,b\n');
    const replaced = await offerOf('report.csv', 2);
    // Another file of the same size renamed over it: a different inode.
    await writeFile(join(run.workspace, 'other.csv'), 'x,y\n');
    await rename(join(run.workspace, 'other.csv'), join(run.workspace, 'report.csv'));
    expect(await fetchCode(replaced.offer.id)).toBe('concurrent_modification');

    for (const { offer, downloading } of [grows, appended, replaced]) {
      await run.dispatch('transfers.answer', { id: offer.id, saved: false });
      expect(await downloading).toMatchObject({ ok: true, value: { saved: false } });
    }
  });

  it('saveAs refuses a symlink swapped in after the offer and copies nothing', async () => {
    const outside = await tempDir();
    await writeFile(join(outside, 'secret.txt'), 'private\n');
    const target = join(await tempDir(), 'saved.txt');
    const run = await start({ chooseSavePath: () => Promise.resolve(target) });
    await writeFile(join(run.workspace, 'notes.txt'), 'public\n');
    await writeFile(join(run.workspace, 'diary.txt'), 'mine!!\n');
    const saving = run.execute('file_download', { path: 'notes.txt' });
    const offer = await vi.waitFor(() => run.offers[0] ?? Promise.reject(new Error('no offer yet')));

    await unlink(join(run.workspace, 'notes.txt'));
    await symlink(join(outside, 'secret.txt'), join(run.workspace, 'notes.txt'));
    expect(await run.dispatch('transfers.saveAs', { id: offer.id })).toMatchObject({
      ok: false,
      error: { code: 'symlink_escape' },
    });
    // A link to another workspace file of the same size is still not the file offered.
    await unlink(join(run.workspace, 'notes.txt'));
    await symlink('diary.txt', join(run.workspace, 'notes.txt'));
    expect(await run.dispatch('transfers.saveAs', { id: offer.id })).toMatchObject({
      ok: false,
      error: { code: 'concurrent_modification' },
    });
    await expect(access(target)).rejects.toThrow();

    await run.dispatch('transfers.answer', { id: offer.id, saved: false });
    expect(await saving).toMatchObject({ ok: true, value: { saved: false } });
  });

  it('refuses paths outside the workspace and folders', async () => {
    const run = await start();
    expect(await run.execute('file_download', { path: '../etc/passwd' })).toMatchObject({
      ok: false,
      error: { code: 'invalid_path' },
    });
    expect(await run.execute('file_download', { path: '.' })).toMatchObject({
      ok: false,
      error: { code: 'not_a_file' },
    });
    expect(run.offers).toEqual([]);
  });

  it('in a chat: the model offers a file, the user saves it, the model reads saved: true', async () => {
    server = await startScriptedLlmServer();
    const run = await start();
    await writeFile(join(run.workspace, 'summary.md'), '# Summary\n');
    await run.dispatch('providers.save', {
      provider: { kind: 'openai-compatible', model: 'scripted-model', baseUrl: `${server.url}/v1` },
    });
    server.enqueue(reply.toolCall('file_download', { path: 'summary.md' }), reply.text('Saved it for you.'));
    const created = (await run.dispatch('conversations.create', {})) as { value: { id: string } };
    await run.dispatch('chat.send', { conversationId: created.value.id, text: 'Give me the summary file.' });
    const offer = await vi.waitFor(() => run.offers[0] ?? Promise.reject(new Error('no offer yet')), {
      timeout: 10_000,
    });
    await run.dispatch('transfers.answer', { id: offer.id, saved: true });
    const result = await vi.waitFor(
      () => run.chatEvents.find((event) => event.type === 'tool-result') ?? Promise.reject(new Error('no result yet')),
      { timeout: 10_000 },
    );
    expect(JSON.stringify(result)).toContain('"saved":true');
  });
});
