import type { AnchoredFiles } from './anchored-batch';

/**
 * Some of a batch's files (by index, in the order given), under the same root and folders. The
 * walk's descriptors (`opened`) stay with the batch they were handed to, which closes them: the
 * files picked are opened again (a descriptor in two batches could be closed twice, the second time
 * another file's by then).
 */
export const pickFiles = (files: AnchoredFiles, indices: readonly number[]): AnchoredFiles => ({
  mode: files.mode,
  root: files.root,
  dirs: files.dirs,
  hardLinks: files.hardLinks,
  dirOf: Int32Array.from(indices, (index) => files.dirOf[index]!),
  names: indices.map((index) => files.names[index]!),
});
