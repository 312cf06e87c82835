import type { PersonaFileName } from '../policy/persona-rules';

/** How much of each persona file reaches the system prompt (OpenClaw's proven defaults). */
export interface PromptCaps {
  readonly perFile: number;
  readonly userFile: number;
  readonly total: number;
}

export const defaultPromptCaps: PromptCaps = { perFile: 20_000, userFile: 4_000, total: 60_000 };

export const capFor = (caps: PromptCaps, name: PersonaFileName): number =>
  name === 'USER.md' ? caps.userFile : caps.perFile;

export interface Truncation {
  readonly text: string;
  /** Characters left out; 0 when the whole file fits. */
  readonly omitted: number;
}

/** Never split a surrogate pair: a half emoji in the prompt is garbage to the model. */
function safeCut(text: string, index: number): number {
  const code = text.charCodeAt(index - 1);
  return code >= 0xd800 && code <= 0xdbff ? index - 1 : index;
}

/**
 * Fits a file into `cap` characters keeping ~75 % of the budget from the head and ~25 % from the
 * tail, with an explicit marker in between: the model must know it did not see everything, and
 * where to read the rest.
 */
export function truncateForPrompt(text: string, cap: number, fileName: string): Truncation {
  if (text.length <= cap) return { text, omitted: 0 };
  const markerFor = (omitted: number) =>
    `\n[...truncated: ${omitted} chars omitted, read_file ${fileName} for the rest]\n`;
  // The marker's own length depends on the number in it; size it for the worst case first.
  const budget = Math.max(0, cap - markerFor(text.length).length);
  const headEnd = safeCut(text, Math.floor(budget * 0.75));
  const tailStart = text.length - (budget - headEnd);
  const tailCut = safeCut(text, tailStart) === tailStart ? tailStart : tailStart + 1;
  const omitted = tailCut - headEnd;
  return { text: `${text.slice(0, headEnd)}${markerFor(omitted)}${text.slice(tailCut)}`, omitted };
}
