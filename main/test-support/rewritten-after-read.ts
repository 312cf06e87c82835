import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { expect } from 'vitest';
import { readFileTool } from '../tools/read-file';
import type { ToolKit } from './tool-kit';

/**
 * The case the read tracker exists for: the assistant reads a file with read_file, then someone
 * else (the user, their editor) writes it again behind its back. Returns the file's absolute path.
 */
export async function rewrittenAfterRead(kit: ToolKit, relPath: string, read: string, then: string): Promise<string> {
  const file = join(kit.workspace, relPath);
  await writeFile(file, read);
  expect((await kit.call(readFileTool, { path: relPath })).ok).toBe(true);
  await writeFile(file, then);
  return file;
}
