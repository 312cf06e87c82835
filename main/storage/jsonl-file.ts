import { open, readFile } from 'node:fs/promises';
import type { z } from 'zod';

export interface JsonLines<T> {
  readonly records: T[];
  /** Lines that were not valid records: a torn last line after a crash, or a hand-edited mistake. */
  readonly skipped: number;
}

/**
 * Reads an append-only JSON-lines file. Each line is parsed and validated on its own, so a line
 * torn by a crash (or any bad line) costs that line only: everything before and after survives.
 */
export async function readJsonLines<S extends z.ZodType>(file: string, schema: S): Promise<JsonLines<z.output<S>>> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { records: [], skipped: 0 };
    throw error;
  }
  const records: z.output<S>[] = [];
  let skipped = 0;
  for (const line of text.split('\n')) {
    if (line.trim() === '') continue;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      skipped += 1;
      continue;
    }
    const parsed = schema.safeParse(value);
    if (parsed.success) records.push(parsed.data);
    else skipped += 1;
  }
  return { records, skipped };
}

/**
 * Appends records as lines and fsyncs, so a record that was reported saved survives a power cut.
 * A previous torn line (no trailing newline) is closed off first so the new record stays parseable.
 */
export async function appendJsonLines(file: string, records: readonly unknown[], mode = 0o600): Promise<void> {
  const handle = await open(file, 'a+', mode);
  try {
    const { size } = await handle.stat();
    let prefix = '';
    if (size > 0) {
      const last = Buffer.alloc(1);
      await handle.read(last, 0, 1, size - 1);
      if (last[0] !== 0x0a) prefix = '\n';
    }
    await handle.appendFile(prefix + records.map((record) => `${JSON.stringify(record)}\n`).join(''));
    await handle.sync();
  } finally {
    await handle.close();
  }
}
