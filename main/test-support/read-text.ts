import type { z } from 'zod';
import { ok } from '../../shared/result';
import type { Result } from '../../shared/result';
import { readFileTool } from '../tools/read-file';
import type { ReadFileOutput, TextReadOutput } from '../tools/read-file';
import type { ToolKit } from './tool-kit';

/** read_file's result narrowed to a text file's: the test fails here if it answered an image or a PDF. */
export function asTextRead(result: Result<ReadFileOutput>): Result<TextReadOutput> {
  if (!result.ok) return result;
  if (result.value.kind !== 'text') throw new Error(`read_file answered a ${result.value.kind}, not text`);
  return ok(result.value);
}

/** read_file through the kit, on a file the test knows is text. */
export const readText = async (
  kit: Pick<ToolKit, 'call'>,
  args: z.input<typeof readFileTool.input>,
): Promise<Result<TextReadOutput>> => asTextRead(await kit.call(readFileTool, args));
