import { readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import type { z } from 'zod';
import { writeFileAtomic, writeFileAtomicSync } from './atomic-file';

/**
 * What a JSON file in Familiar's data folder held. Every caller starts from defaults when it is
 * `absent`; `not-json` and `invalid` are told apart so the user hears which edit broke it.
 */
export type StoredJson<T> =
  | { readonly state: 'absent' }
  | { readonly state: 'not-json' }
  | { readonly state: 'invalid'; readonly error: z.ZodError }
  | { readonly state: 'valid'; readonly value: T };

function parseStored<S extends z.ZodType>(text: string, schema: S): StoredJson<z.output<S>> {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { state: 'not-json' };
  }
  const parsed = schema.safeParse(value);
  return parsed.success ? { state: 'valid', value: parsed.data } : { state: 'invalid', error: parsed.error };
}

/**
 * Reads and validates a JSON file. A file that is missing or cannot be read counts as `absent`:
 * the data folder holds settings and caches, and no unreadable one may stop the app.
 */
export async function readJsonFile<S extends z.ZodType>(file: string, schema: S): Promise<StoredJson<z.output<S>>> {
  const text = await readFile(file, 'utf8').catch(() => undefined);
  return text === undefined ? { state: 'absent' } : parseStored(text, schema);
}

/** readJsonFile for start-up code that runs before the event loop matters (the window's placement). */
export function readJsonFileSync<S extends z.ZodType>(file: string, schema: S): StoredJson<z.output<S>> {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    return { state: 'absent' };
  }
  return parseStored(text, schema);
}

/** Pretty JSON with a final newline: these files are the user's to read and edit. */
const jsonText = (value: unknown) => `${JSON.stringify(value, null, 2)}\n`;

/**
 * Validates `value` (a programmer error throws: nothing is written that could not be read back)
 * and writes it atomically, private to the user by default.
 */
export async function writeJsonFile<S extends z.ZodType>(
  file: string,
  schema: S,
  value: z.input<S>,
  mode = 0o600,
): Promise<void> {
  await writeFileAtomic(file, jsonText(schema.parse(value)), mode);
}

/** writeJsonFile for a write that must finish before the process may exit. */
export function writeJsonFileSync<S extends z.ZodType>(file: string, schema: S, value: z.input<S>, mode = 0o600): void {
  writeFileAtomicSync(file, jsonText(schema.parse(value)), mode);
}
