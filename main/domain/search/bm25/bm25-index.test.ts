import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { openPositionedFile } from '../../../platform/storage/positioned-file';
import { Bm25Index } from './bm25-index';
import type { Manifest } from './segment-store';
import { DiskSegment } from './disk-segment';
import { SavedIndex } from '../saved-index';
import { processTerm } from '../tokenize';

const chunking = { targetTokens: 300, overlapTokens: 60, splitAtHeadings: true };
const ROOT = '/workspace';
const folders: string[] = [];
afterEach(async () => {
  for (const dir of folders.splice(0)) await rm(dir, { recursive: true, force: true });
});

/** An index saved in a temporary folder, as WorkspaceIndex keeps one in the Familiar home. */
async function savedIn(dir?: string): Promise<{ dir: string; index: Bm25Index; saved: SavedIndex }> {
  const folder = dir ?? (await mkdtemp(join(tmpdir(), 'familiar-bm25-')));
  if (dir === undefined) folders.push(folder);
  const index = new Bm25Index(chunking);
  const saved = new SavedIndex(join(folder, 'index.json'), ROOT, index);
  await saved.load();
  return { dir: folder, index, saved };
}

const hitsOf = (index: Bm25Index, query: string, limit = 20) =>
  index
    .search(query, { limit })
    .map((hit) => [hit.path, hit.startLine, hit.endLine, hit.heading, hit.score, hit.terms]);

describe('Bm25Index', () => {
  it('indexes a big file a slice at a time, letting the event loop run, with the same result as at once', async () => {
    // About 2 MB of prose in paragraphs: counting its terms takes far longer than one 8 ms slice.
    const paragraph = (n: number) =>
      `Paragraph ${n} tells of lighthouse keepers, harbours and the ${n % 7 === 0 ? 'walrus' : 'gull'} colony.`;
    const text = Array.from({ length: 24_000 }, (_, n) => paragraph(n)).join('\n\n');
    const atOnce = new Bm25Index(chunking);
    atOnce.setDocument('big.md', text, '1');
    const sliced = new Bm25Index(chunking);
    let turns = 0;
    const counter = setInterval(() => (turns += 1), 0);
    try {
      await sliced.setDocumentSliced('big.md', text, '1');
    } finally {
      clearInterval(counter);
    }
    expect(turns).toBeGreaterThan(2); // timers ran while it counted
    expect(sliced.versionOf('big.md')).toBe('1');
    expect(hitsOf(sliced, 'walrus colony')).toEqual(hitsOf(atOnce, 'walrus colony'));
    expect(hitsOf(sliced, 'walrus colony').length).toBeGreaterThan(0);
  });

  it('holds its counting between slices while `pause` gives a promise, and goes on once that settles', async () => {
    const text = Array.from({ length: 24_000 }, (_, n) => `Paragraph ${n} about the walrus colony.`).join('\n\n');
    const sliced = new Bm25Index(chunking);
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let asked = 0;
    const counting = sliced.setDocumentSliced('big.md', text, '1', () => {
      asked += 1;
      return asked === 1 ? held : undefined; // a query answers during the first pause
    });
    await vi.waitFor(() => expect(asked).toBe(1), { interval: 5 });
    await sleep(100);
    expect(asked).toBe(1);
    expect(sliced.versionOf('big.md')).toBeUndefined();
    release();
    await counting;
    expect(asked).toBeGreaterThan(1);
    expect(sliced.versionOf('big.md')).toBe('1');
  });

  it('ranks by BM25 over sections, stems Russian and English, and keeps only the top k', () => {
    const index = new Bm25Index(chunking);
    index.setDocument('a.md', '# Сад\n\nМы посадили яблони.\n\n# Кухня\n\nВаренье из яблок и груш.', String(1));
    index.setDocument('b.md', 'Deploying servers on Fridays is brave.', String(1));
    index.setDocument('c.md', 'Яблоня, яблоня, яблоня в саду.', String(1));
    const hits = index.search('яблонями', { limit: 2 });
    expect(hits.map((hit) => [hit.path, hit.startLine, hit.heading])).toEqual([
      ['c.md', 1, undefined],
      ['a.md', 1, 'Сад'],
    ]);
    expect(index.search('deployed server', { limit: 5 }).map((hit) => hit.path)).toEqual(['b.md']);
    expect(index.search('и в на', { limit: 5 })).toEqual([]);
  });

  it('replaces and removes documents, filters, and survives a save and reopen with the same scores', async () => {
    const { dir, index, saved } = await savedIn();
    for (let n = 0; n < 1500; n += 1) index.setDocument(`f${n}.md`, `walrus number ${n}`, String(n));
    for (let n = 0; n < 1200; n += 1) index.removeDocument(`f${n}.md`);
    index.setDocument('f1499.md', 'now about otters', String(2));
    expect(index.documentCount).toBe(300);
    expect(index.versionOf('f1499.md')).toBe('2');
    expect(index.search('walrus', { limit: 1000 })).toHaveLength(299);
    expect(index.search('walrus', { limit: 10, filter: (path) => path === 'f1300.md' }).map((hit) => hit.path)).toEqual(
      ['f1300.md'],
    );
    index.setDocument('h.md', '# Walrus\n\nA walrus and an otter.', String(3));
    await saved.save();
    const copy = await savedIn(dir);
    expect(copy.index.documentCount).toBe(301);
    expect(copy.index.search('otters now', { limit: 3 }).map((hit) => hit.path)).toEqual(['f1499.md', 'h.md']);
    expect(copy.index.search('walrus', { limit: 1000 })).toHaveLength(300);
    expect(hitsOf(copy.index, 'walrus otter', 50)).toEqual(hitsOf(index, 'walrus otter', 50));
    expect(hitsOf(index, 'walrus')[0]?.[0]).toBe('h.md');
    expect(copy.index.chunkHashes('h.md')).toEqual(index.chunkHashes('h.md'));
    // Packed postings keep each frequency, a heading's half weights included.
    const [name] = (await readdir(join(dir, 'index.segments'))).filter((file) => file.endsWith('.seg'));
    const segment = new DiskSegment(name as string, openPositionedFile(join(dir, 'index.segments', name as string))!);
    const walrus = segment.postings(processTerm('walrus')[0] as string);
    const h = [...Array(segment.fileCount).keys()].find((file) => segment.path(file) === 'h.md') as number;
    const at = Array.from(walrus?.slots ?? []).indexOf(segment.firstChunk(h));
    expect(walrus?.tf2[at]).toBe(7); // twice in the text, once (×1.5) as heading: 3.5, in halves
    segment.close();
    await copy.saved.close();
    await saved.close();
  });

  it('reopens with the same hits, the changed file under its new words only, across segments', async () => {
    const { dir, index, saved } = await savedIn();
    for (let n = 0; n < 30; n += 1)
      index.setDocument(`notes/${n}.md`, `# Note ${n}\n\nabout lighthouses and keeper ${n}`, 'v1');
    await saved.save();
    index.setDocument('notes/7.md', '# Note 7\n\nabout submarines now', 'v2');
    index.removeDocument('notes/8.md');
    for (let n = 30; n < 40; n += 1) index.setDocument(`notes/${n}.md`, `lighthouses in the harbour ${n}`, 'v1');
    // Found under its new words, not its old, before and after the flush that writes it.
    const check = (of: Bm25Index) => {
      expect(of.search('submarine', { limit: 5 }).map((hit) => hit.path)).toEqual(['notes/7.md']);
      expect(of.search('lighthouse', { limit: 100 }).map((hit) => hit.path)).not.toContain('notes/7.md');
      expect(of.search('lighthouse', { limit: 100 }).map((hit) => hit.path)).not.toContain('notes/8.md');
      expect(of.versionOf('notes/7.md')).toBe('v2');
      expect(of.versionOf('notes/8.md')).toBeUndefined();
    };
    check(index);
    const before = hitsOf(index, 'lighthouse keeper submarine', 100);
    await saved.save();
    expect(index.segmentCount).toBe(2);
    check(index);
    expect(hitsOf(index, 'lighthouse keeper submarine', 100)).toEqual(before);
    await saved.close();
    const reopened = await savedIn(dir);
    check(reopened.index);
    expect(reopened.index.documentCount).toBe(39);
    expect(hitsOf(reopened.index, 'lighthouse keeper submarine', 100)).toEqual(before);
    expect([...reopened.index.paths()].sort()).toEqual([...index.paths()].sort());
    await reopened.saved.close();
  });

  it('opens what the manifest names after a crash between a segment write and the manifest', async () => {
    const { dir, index, saved } = await savedIn();
    index.setDocument('a.md', 'orchids need indirect light', '1');
    await saved.save();
    // The process dies after writing the next segment, before the manifest that would name it.
    class CrashingStore extends SavedIndex {
      override writeManifest(): Promise<void> {
        return Promise.reject(new Error('killed'));
      }
    }
    index.setDocument('b.md', 'cacti need direct sun', '1');
    index.removeDocument('a.md');
    await expect(index.save(new CrashingStore(join(dir, 'index.json'), ROOT, index), ROOT)).rejects.toThrow('killed');
    const files = () => readdir(join(dir, 'index.segments'));
    expect((await files()).filter((file) => file.endsWith('.seg'))).toHaveLength(2);
    const reopened = await savedIn(dir);
    // The last manifest's state: a.md, not the unnamed segment's b.md (the rescan will index it again).
    expect(reopened.index.search('orchid', { limit: 5 }).map((hit) => hit.path)).toEqual(['a.md']);
    expect(reopened.index.versionOf('b.md')).toBeUndefined();
    expect((await files()).filter((file) => file.endsWith('.seg'))).toHaveLength(1);
    await reopened.saved.close();
    await saved.close();
    // A torn manifest: nothing opens, the folder is emptied for the rebuild.
    await writeFile(join(dir, 'index.segments', 'manifest.json'), '{"format":1,"root":"/work');
    const torn = await savedIn(dir);
    expect(torn.index.documentCount).toBe(0);
    expect((await files()).filter((file) => file.endsWith('.seg'))).toHaveLength(0);
    await torn.saved.close();
  });

  it('merges small segments into one with the answers of an index of the surviving files', async () => {
    const { dir, index, saved } = await savedIn();
    const expected = new Map<string, string>();
    const set = (path: string, text: string) => {
      index.setDocument(path, text, 'v');
      expected.delete(path);
      expected.set(path, text);
    };
    const words = ['copper', 'kettle', 'garden', 'violin', 'harbour', 'meadow'];
    for (let round = 0; round < 4; round += 1) {
      for (let n = 0; n < 25; n += 1) {
        const text = `# Part ${n}\n\n${words[(n + round) % 6]} ${words[(n * 7) % 6]} ${words[round]} story ${n}`;
        set(`r${round}/${n}.md`, text);
      }
      if (round > 0) {
        index.removeDocument(`r${round - 1}/3.md`);
        expected.delete(`r${round - 1}/3.md`);
        set(`r0/5.md`, `replaced in round ${round}: meadow violin`);
      }
      await saved.save();
    }
    expect(index.segmentCount).toBe(1);
    expect((await readdir(join(dir, 'index.segments'))).filter((file) => file.endsWith('.seg'))).toHaveLength(1);
    const fresh = new Bm25Index(chunking);
    for (const [path, text] of expected) fresh.setDocument(path, text, 'v');
    for (const query of ['copper kettle', 'meadow violin story', 'harbour part', 'garden']) {
      expect(hitsOf(index, query, 200)).toEqual(hitsOf(fresh, query, 200));
    }
    await saved.close();
    const reopened = await savedIn(dir);
    expect(hitsOf(reopened.index, 'meadow violin story', 200)).toEqual(hitsOf(fresh, 'meadow violin story', 200));
    await reopened.saved.close();
  });

  it('merges no segment of 16,000 chunks or more (a merge holds its output in memory)', async () => {
    const { index, saved } = await savedIn();
    for (let round = 0; round < 4; round += 1) {
      for (let n = 0; n < 16_000; n += 1) index.setDocument(`r${round}/${n}.md`, `note ${n} of round ${round}`, 'v');
      await saved.save();
    }
    expect(index.segmentCount).toBe(4);
    expect(index.documentCount).toBe(64_000);
    expect(index.search('15999 round 3', { limit: 1 })[0]?.path).toBe('r3/15999.md');
    await saved.close();
  }, 30_000);

  it('writes the manifest after the segments it names', async () => {
    const { dir, index, saved } = await savedIn();
    index.setDocument('a.md', 'one two three', '1');
    await saved.save();
    const manifest = JSON.parse(
      await (await import('node:fs/promises')).readFile(join(dir, 'index.segments', 'manifest.json'), 'utf8'),
    ) as Manifest;
    expect(manifest.root).toBe(ROOT);
    expect(manifest.segments).toHaveLength(1);
    expect(await readdir(join(dir, 'index.segments'))).toContain(manifest.segments[0]?.name);
    await saved.close();
  });
});
