import { describe, expect, it } from 'vitest';
import type { AnchoredFiles, RootAnchor } from '../../platform/disk/anchored-batch';
import type { SearchEngine } from './search-js-engine';
import { WalkBatches } from './walk-batches';

/** An engine that keeps what it is given: each batch's offset and its files' names. */
function recordingEngine(batchFiles: number) {
  const added: { offset: number; names: readonly string[]; persona: boolean }[] = [];
  const engine: SearchEngine = {
    name: 'js',
    batchFiles,
    add: (offset: number, files: AnchoredFiles) =>
      added.push({ offset, names: files.names, persona: files.root.path === '/persona' }),
    finish: () => Promise.resolve([]),
  };
  return { engine, added };
}

const anchor = (path: string): RootAnchor => ({
  mode: 'checked-path',
  dir: { fd: -1, path, dev: 1, ino: path.length },
  hardLinks: 'refuse',
});
const anchorOf = (inPersona: boolean) => anchor(inPersona ? '/persona' : '/workspace');
const entry = (name: string, inPersona = false) => ({
  relPath: name,
  inPersona,
  dirRealRel: '',
  dirId: { dev: 1, ino: 1 },
  name,
});

describe('the batches a search hands its engine', () => {
  it('cuts them at the batch size, at a change of root and at the share of bytes, offsets into the files taken', () => {
    const { engine, added } = recordingEngine(3);
    const batches = new WalkBatches(engine, anchorOf);
    batches.take(entry('SOUL.md', true));
    for (const name of ['a', 'b', 'c', 'd']) batches.take(entry(name));
    batches.takeShared([entry('e'), entry('f'), entry('g')], [10, 30, 5], 40);
    batches.listOnly('gone/h');
    batches.finish();
    expect(added).toEqual([
      { offset: 0, names: ['SOUL.md'], persona: true }, // a new root: the persona folder's batch goes
      { offset: 1, names: ['a', 'b', 'c'], persona: false }, // three files: the batch size
      { offset: 4, names: ['d', 'e', 'f'], persona: false }, // three again (40 bytes reached as well)
      { offset: 7, names: ['g'], persona: false }, // the last, at the end; h is only listed
    ]);
    expect(batches.files).toEqual(['SOUL.md', 'a', 'b', 'c', 'd', 'e', 'f', 'g', 'gone/h']);
  });

  it('starts counting a share anew with each batch', () => {
    const { engine, added } = recordingEngine(100);
    const batches = new WalkBatches(engine, anchorOf);
    batches.takeShared([entry('a'), entry('b'), entry('c'), entry('d')], [25, 25, 25, 25], 50);
    batches.finish();
    expect(added.map((batch) => batch.names)).toEqual([
      ['a', 'b'],
      ['c', 'd'],
    ]);
  });
});
