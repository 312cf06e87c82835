import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { listFolder } from '../../platform/storage/folders';
import { useTempDirs } from '../../test-support/temp-dir';
import { openChatImageStore } from './chat-images';

// A 1×1 PNG and a 1×1 GIF, whole files.
const png = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
);
const gif = Buffer.from('R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7', 'base64');

describe('chat image store', () => {
  const tempDir = useTempDirs();

  it('keeps a picture once by its SHA-256 and reads it back with its real format', async () => {
    const dir = join(await tempDir(), 'chat-images');
    const store = openChatImageStore(dir);
    const upload = { name: 'dot.png', mime: 'image/png' as const, data: png.toString('base64') };
    const first = await store.keep('c-one-conversation', [upload], false);
    const second = await store.keep('c-two-conversation', [upload], false);
    expect(first).toMatchObject({ ok: true, value: [{ mime: 'image/png', width: 1, height: 1, bytes: png.length }] });
    if (!first.ok || !second.ok) throw new Error('refused');
    const hash = first.value[0]?.hash ?? '';
    expect(second.value[0]?.hash).toBe(hash);
    expect(await listFolder(dir)).toEqual([hash]);
    // Another store on the same folder (a restart) finds it.
    const again = await openChatImageStore(dir).read('c-one-conversation', hash);
    expect(again?.mime).toBe('image/png');
    expect(again?.bytes.equals(png)).toBe(true);
  });

  it('refuses a picture that is not the format it claims, and one over the size sent to a model', async () => {
    const store = openChatImageStore(join(await tempDir(), 'chat-images'));
    const lying = await store.keep('c-one-conversation', [{ mime: 'image/png', data: gif.toString('base64') }], false);
    expect(lying).toMatchObject({ ok: false, error: { code: 'invalid_payload' } });
    const text = await store.keep('c-one-conversation', [{ mime: 'image/png', data: 'aGVsbG8=' }], false);
    expect(text).toMatchObject({ ok: false, error: { code: 'invalid_payload' } });
  });

  it('keeps an incognito conversation’s pictures in memory only, and forgets them', async () => {
    const dir = join(await tempDir(), 'chat-images');
    const store = openChatImageStore(dir);
    const kept = await store.keep('c-incognito-one', [{ mime: 'image/gif', data: gif.toString('base64') }], true);
    if (!kept.ok) throw new Error(kept.error.message);
    const hash = kept.value[0]?.hash ?? '';
    expect((await store.read('c-incognito-one', hash))?.mime).toBe('image/gif');
    expect(await listFolder(dir)).toEqual([]);
    store.forget('c-incognito-one');
    expect(await store.read('c-incognito-one', hash)).toBeUndefined();
  });
});
