import type { AnchoredFiles } from './anchored-batch';

/** Some of a batch's files (by index, in the order given), under the same root and folders. */
export const pickFiles = (files: AnchoredFiles, indices: readonly number[]): AnchoredFiles => ({
  ...files,
  dirOf: Int32Array.from(indices, (index) => files.dirOf[index]!),
  names: indices.map((index) => files.names[index]!),
});
