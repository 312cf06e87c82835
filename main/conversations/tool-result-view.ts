import type { ToolResultView } from '../../shared/ipc/chat';
import type { StoredToolResult } from './transcript-records';

/** What the page receives of a tool's value: enough to show, small enough to send on every event. */
export const VIEW_VALUE_CAP_CHARS = 8_000;
const SUMMARY_CHARS = 120;

const clip = (text: string, max: number) => (text.length <= max ? text : `${text.slice(0, max - 1)}…`);

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
    const summary = (value as Record<string, unknown>)['summary'];
    if (typeof summary === 'string') return clip(summary, SUMMARY_CHARS);
  }
  return clip(JSON.stringify(value) ?? typeof value, SUMMARY_CHARS);
}

/** A tool Result as the page shows it: a one-line summary and the value capped at ~8 KB. */
export function toToolResultView(result: StoredToolResult): ToolResultView {
  if (!result.ok) {
    const firstLine = result.error.message.split('\n')[0] ?? '';
    return { ok: false, code: result.error.code, summary: clip(`${result.error.code}: ${firstLine}`, 200) };
  }
  const view: ToolResultView = { ok: true, summary: summarize(result.value) };
  if (result.value === undefined) return view;
  if (typeof result.value === 'string') {
    return result.value.length <= VIEW_VALUE_CAP_CHARS
      ? { ...view, value: result.value }
      : { ...view, value: result.value.slice(0, VIEW_VALUE_CAP_CHARS), truncated: true };
  }
  const json = JSON.stringify(result.value) ?? 'null';
  return json.length <= VIEW_VALUE_CAP_CHARS
    ? { ...view, value: result.value }
    : { ...view, value: json.slice(0, VIEW_VALUE_CAP_CHARS), truncated: true };
}
