import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useTempDirs } from '../../test-support/temp-dir';
import { openConversationStore } from './conversation-store';
import type { ConversationChange, ConversationStore } from './conversation-store';
import { deriveTitle } from './transcript-view';

const tempDir = useTempDirs();

async function storeIn(home: string) {
  return openConversationStore({ conversations: join(home, 'conversations'), trash: join(home, 'trash') });
}

async function createIn(store: ConversationStore, options?: { incognito?: boolean }) {
  const created = await store.create(options);
  if (!created.ok) throw new Error(created.error.message);
  return created.value;
}

describe('conversation store', () => {
  it('creates conversations, names them from the first message and lists them newest first', async () => {
    const home = await tempDir();
    const store = await storeIn(home);
    const first = await createIn(store);
    const second = await createIn(store);
    expect(first.title).toBe('New conversation');
    await store.append(first.id, [{ type: 'user', messageId: 'm0000000-aaaa', text: '  Plan the\n trip to Kyoto ' }]);
    await store.append(first.id, [{ type: 'user', messageId: 'm0000000-bbbb', text: 'Something else' }]);

    const list = await store.list();
    expect(list.map((summary) => summary.id)).toEqual([first.id, second.id]);
    expect(list[0]).toMatchObject({ title: 'Plan the', messageCount: 2 });

    // A fresh store over the same folder sees the same thing: the files are the truth.
    await store.close();
    const reopened = await storeIn(home);
    expect((await reopened.list()).map((summary) => [summary.id, summary.title])).toEqual([
      [first.id, 'Plan the'],
      [second.id, 'New conversation'],
    ]);
  });

  it('keeps a user rename even when the first message arrives later', async () => {
    const store = await storeIn(await tempDir());
    const { id } = await createIn(store);
    await store.rename(id, 'My own title');
    await store.append(id, [{ type: 'user', messageId: 'm0000000-aaaa', text: 'Hello there' }]);
    const loaded = await store.load(id);
    expect(loaded.ok && loaded.value.summary.title).toBe('My own title');
  });

  it('searches titles ignoring case and accents', async () => {
    const store = await storeIn(await tempDir());
    const cafe = await createIn(store);
    await store.rename(cafe.id, 'Café recipes');
    const other = await createIn(store);
    await store.rename(other.id, 'Taxes 2026');
    expect((await store.search('CAFE')).map((summary) => summary.id)).toEqual([cafe.id]);
    expect((await store.search('recipes café')).map((summary) => summary.id)).toEqual([cafe.id]);
    expect(await store.search('nothing like it')).toEqual([]);
    expect(await store.search('  ')).toHaveLength(2);
  });

  it('deletes to a restorable trash and announces both', async () => {
    const home = await tempDir();
    const store = await storeIn(home);
    const changes: ConversationChange[] = [];
    store.subscribe((change) => changes.push(change));
    const { id } = await createIn(store);
    await store.append(id, [{ type: 'user', messageId: 'm0000000-aaaa', text: 'Keep me safe' }], { sync: true });

    expect((await store.moveToTrash(id)).ok).toBe(true);
    expect(await store.list()).toEqual([]);
    expect(await readdir(join(home, 'trash', 'conversations'))).toEqual([`${id}.jsonl`]);
    const trash = await store.listTrash();
    expect(trash).toMatchObject([{ id, title: 'Keep me safe' }]);
    expect(trash[0]?.deletedAt).toBeDefined();
    expect((await store.load(id)).ok).toBe(false);

    const restored = await store.restore(id);
    expect(restored).toMatchObject({ ok: true, value: { id, title: 'Keep me safe', messageCount: 1 } });
    expect(await store.listTrash()).toEqual([]);
    const loaded = await store.load(id);
    expect(loaded.ok && loaded.value.folded.exchanges.map((exchange) => exchange.text)).toEqual(['Keep me safe']);
    expect(changes.map((change) => change.kind)).toEqual(['upsert', 'upsert', 'removed', 'upsert']);
    // Deletion and restoration are appended, never rewritten.
    const text = await readFile(join(home, 'conversations', `${id}.jsonl`), 'utf8');
    expect(text).toContain('"type":"deleted"');
    expect(text).toContain('"type":"restored"');
  });

  it('keeps an incognito conversation off disk, and after close forgets it and refuses every write', async () => {
    const home = await tempDir();
    const store = await storeIn(home);
    const secret = await createIn(store, { incognito: true });
    const kept = await createIn(store);
    expect(secret.incognito).toBe(true);
    expect(store.isIncognito(secret.id)).toBe(true);
    const words = [{ type: 'user' as const, messageId: 'm0000000-aaaa', text: 'Only between us' }];
    expect(await store.append(secret.id, words, { sync: true })).toEqual({ ok: true, value: undefined });
    expect(await readdir(join(home, 'conversations'))).toEqual([`${kept.id}.jsonl`]);

    await store.close();
    // A write racing shutdown (a late tool result, an approval answer) is refused as a value: it
    // neither throws nor writes <id>.jsonl, and the id is not reborn as an ordinary conversation.
    expect(await store.append(secret.id, words, { sync: true })).toMatchObject({
      ok: false,
      error: { code: 'aborted' },
    });
    expect(await store.append(kept.id, words)).toMatchObject({ ok: false, error: { code: 'aborted' } });
    expect(await store.create({ incognito: true })).toMatchObject({ ok: false, error: { code: 'aborted' } });
    expect(await store.create()).toMatchObject({ ok: false, error: { code: 'aborted' } });
    expect(await store.rename(kept.id, 'Late')).toMatchObject({ ok: false, error: { code: 'aborted' } });
    expect(await store.moveToTrash(kept.id)).toMatchObject({ ok: false, error: { code: 'aborted' } });
    expect(store.isIncognito(secret.id)).toBe(false);
    expect(await store.load(secret.id)).toMatchObject({ ok: false, error: { code: 'not_found' } });
    expect((await store.list()).map((summary) => summary.id)).toEqual([kept.id]);
    expect(await readdir(join(home, 'conversations'))).toEqual([`${kept.id}.jsonl`]);
    expect(await readFile(join(home, 'conversations', `${kept.id}.jsonl`), 'utf8')).not.toContain('Only between us');
  });

  it('refuses ids that are not Familiar ids, so no path can escape the folder', async () => {
    const store = await storeIn(await tempDir());
    for (const id of ['../settings', 'a/b', '', 'C0000000-UPPER']) {
      expect(await store.load(id)).toMatchObject({ ok: false, error: { code: 'not_found' } });
      expect(await store.moveToTrash(id)).toMatchObject({ ok: false, error: { code: 'not_found' } });
      expect(await store.restore(id)).toMatchObject({ ok: false, error: { code: 'not_found' } });
    }
  });
});

describe('deriveTitle', () => {
  it('takes the first non-empty line and cuts long ones at a word boundary', () => {
    expect(deriveTitle('\n\n  Hello   world \nmore')).toBe('Hello world');
    expect(deriveTitle('   ')).toBe('New conversation');
    const long = deriveTitle('word '.repeat(30));
    expect(long.endsWith('…')).toBe(true);
    expect(Array.from(long).length).toBeLessThanOrEqual(61);
    expect(deriveTitle('漢'.repeat(80))).toBe(`${'漢'.repeat(60)}…`);
  });
});
