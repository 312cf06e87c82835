import type { ToolResultView } from '../../../shared/ipc/chat';
import { splitToolImage } from '../../../shared/tool-image';
import type { StoredToolResult } from './transcript-records';

/** What the page receives of a tool's value: enough to show, small enough to send on every event. */
export const VIEW_VALUE_CAP_CHARS = 8_000;
const SUMMARY_CHARS = 120;
/** The share of the cap one long string field (a file's content, a diff) may take in a capped object. */
const FIELD_CAP_CHARS = 6_000;
/** Items kept of a long list (entries, search results) in a capped object. */
const LIST_CAP_ITEMS = 50;

const clip = (text: string, max: number) => (text.length <= max ? text : `${text.slice(0, max - 1)}…`);
const plural = (count: number, one: string, many = `${one}s`) => `${count} ${count === 1 ? one : many}`;

/** Lines a unified diff adds and removes (headers excluded). */
function diffCounts(diff: string): { added: number; removed: number } {
  let added = 0;
  let removed = 0;
  for (const line of diff.split('\n')) {
    if (line.startsWith('+') && !line.startsWith('+++')) added += 1;
    else if (line.startsWith('-') && !line.startsWith('---')) removed += 1;
  }
  return { added, removed };
}

/**
 * One line for an object result, read from the fields the file tools return (diff, entries,
 * results, content, bytes_written…) rather than from tool names, so a new tool with the same
 * fields reads well too. Undefined when no known field is there.
 */
function summarizeFields(value: Record<string, unknown>): string | undefined {
  const { path, diff, entries, results, content, bytes_written: bytes, source, destination, trash_path } = value;
  const at = typeof path === 'string' ? `${path}: ` : '';
  if (typeof value['summary'] === 'string') return value['summary'];
  if (value['kind'] === 'image' && typeof value['width'] === 'number' && typeof value['height'] === 'number')
    return `${at}${value['width']}×${value['height']} image`;
  if (value['kind'] === 'pdf' && typeof value['pages'] === 'number') {
    return `${at}pages ${String(value['start_page'])}–${String(value['end_page'])} of ${value['pages']}`;
  }
  if (typeof diff === 'string') {
    const { added, removed } = diffCounts(diff);
    return `${at}+${added} −${removed} lines`;
  }
  if (Array.isArray(entries)) return `${at}${plural(entries.length, 'entry', 'entries')}`;
  if (Array.isArray(results) && typeof value['total_matches'] === 'number') {
    const files = typeof value['files_with_matches'] === 'number' ? value['files_with_matches'] : results.length;
    return `${plural(value['total_matches'], 'match', 'matches')} in ${plural(files, 'file')}`;
  }
  if (typeof content === 'string' && typeof value['start_line'] === 'number') {
    const total = typeof value['total_lines'] === 'number' ? ` of ${value['total_lines']}` : '';
    return `${at}lines ${value['start_line']}–${String(value['end_line'])}${total}`;
  }
  if (typeof bytes === 'number') return `${at}${value['created'] === true ? 'created, ' : ''}${plural(bytes, 'byte')}`;
  if (typeof source === 'string' && typeof destination === 'string') return `${source} → ${destination}`;
  if (typeof trash_path === 'string') return `${at}moved to the trash`;
  if (value['created'] === true) return `${at}created`;
  if (typeof value['type'] === 'string' && typeof value['size'] === 'number')
    return `${at}${value['type']}, ${plural(value['size'], 'byte')}`;
  return undefined;
}

function summarize(value: unknown): string {
  if (typeof value === 'string') {
    const lines = value.split('\n');
    const first = lines.find((line) => line.trim() !== '') ?? '';
    return lines.length > 1
      ? `${clip(first.trim(), SUMMARY_CHARS)} (${lines.length} lines)`
      : clip(first.trim(), SUMMARY_CHARS);
  }
  if (Array.isArray(value)) return `${value.length} item${value.length === 1 ? '' : 's'}`;
  if (value === undefined || value === null) return 'done';
  if (typeof value === 'object') {
    const fields = summarizeFields(value as Record<string, unknown>);
    if (fields !== undefined) return clip(fields, SUMMARY_CHARS);
  }
  return clip(JSON.stringify(value) ?? typeof value, SUMMARY_CHARS);
}

/**
 * A large object result with its long fields cut (strings, lists) so the page still gets an object
 * it can read (a diff stays a diff), or undefined when even that does not fit.
 */
function capObject(value: Record<string, unknown>): Record<string, unknown> | undefined {
  const capped: Record<string, unknown> = {};
  for (const [key, field] of Object.entries(value)) {
    if (typeof field === 'string') capped[key] = clip(field, FIELD_CAP_CHARS);
    else if (Array.isArray(field)) capped[key] = field.slice(0, LIST_CAP_ITEMS);
    else capped[key] = field;
  }
  return (JSON.stringify(capped) ?? '').length <= VIEW_VALUE_CAP_CHARS ? capped : undefined;
}

/** A tool Result as the page shows it: a one-line summary and the value capped at ~8 KB. */
export function toToolResultView(result: StoredToolResult): ToolResultView {
  if (!result.ok) {
    const { code, message } = result.error;
    const firstLine = message.split('\n')[0] ?? '';
    const view: ToolResultView = { ok: false, code, summary: clip(`${code}: ${firstLine}`, 200) };
    // The rest of the message (closest lines on no_match, hints) is what the expanded card shows.
    return message.includes('\n') ? { ...view, value: clip(message, VIEW_VALUE_CAP_CHARS) } : view;
  }
  // An image result's bytes are not for the page: its facts are (shared/tool-image.ts).
  const value = splitToolImage(result.value)?.facts ?? result.value;
  const view: ToolResultView = { ok: true, summary: summarize(value) };
  if (value === undefined) return view;
  if (typeof value === 'string') {
    return value.length <= VIEW_VALUE_CAP_CHARS
      ? { ...view, value }
      : { ...view, value: value.slice(0, VIEW_VALUE_CAP_CHARS), truncated: true };
  }
  const json = JSON.stringify(value) ?? 'null';
  if (json.length <= VIEW_VALUE_CAP_CHARS) return { ...view, value };
  const isObject = typeof value === 'object' && value !== null && !Array.isArray(value);
  const capped = isObject ? capObject(value as Record<string, unknown>) : undefined;
  return capped !== undefined
    ? { ...view, value: capped, truncated: true }
    : { ...view, value: json.slice(0, VIEW_VALUE_CAP_CHARS), truncated: true };
}
