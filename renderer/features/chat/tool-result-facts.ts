import type { MessageKey } from '../../i18n/en';
import { formatBytes } from '../../format/format-bytes';

export interface ResultFact {
  readonly label: MessageKey;
  readonly text: string;
}

const record = (value: unknown): Record<string, unknown> | undefined =>
  typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;

type Translate = (key: MessageKey, params?: Record<string, string | number>) => string;

/**
 * A tool's result in words, read from the fields the file tools return: the file, how much was
 * written, whether it was new, and that a backup was kept — never the backup's absolute path in the
 * Familiar home, which says nothing to the reader. Empty when no known field is there (the raw
 * value is shown instead).
 */
export function resultFacts(value: unknown, t: Translate, locale: string): ResultFact[] {
  const fields = record(value);
  if (fields === undefined) return [];
  const facts: ResultFact[] = [];
  const { path, bytes_written: written, created, encoding, backup_path: backup, source, destination } = fields;
  if (typeof source === 'string' && typeof destination === 'string')
    facts.push({ label: 'tool.fact.moved', text: `${source} → ${destination}` });
  else if (typeof path === 'string') facts.push({ label: 'tool.fact.file', text: path === '' ? '/' : path });
  if (typeof written === 'number') facts.push({ label: 'tool.fact.written', text: formatBytes(written, locale) });
  if (typeof created === 'boolean')
    facts.push({ label: 'tool.fact.created', text: t(created ? 'tool.fact.newFile' : 'tool.fact.replaced') });
  if (typeof encoding === 'string' && encoding !== 'utf-8') facts.push({ label: 'tool.fact.encoding', text: encoding });
  if (typeof backup === 'string') facts.push({ label: 'tool.fact.backup', text: t('tool.fact.backupKept') });
  return facts.length > 1 || typeof written === 'number' ? facts : [];
}
