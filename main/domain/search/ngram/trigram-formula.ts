import { trigramKey } from '../../../platform/search-engines/ngram-types';

// The vocabulary of plans: the formula type, its and/or that keep it flat, and a string's trigrams.
// Separate from the regex analysis (regex-match-info.ts, regex-plan-parser.ts) because the index
// (ngram-index.ts) and the service only need this part, and a literal query needs no parser.

/**
 * Which files may match a query, as a boolean formula over trigrams (Russ Cox, "Regular Expression
 * Matching with a Trigram Index", 2012): `all` when nothing can be told. A file the formula rejects
 * cannot match; one it accepts is only a candidate, confirmed by the real matcher.
 */
export type TrigramPlan =
  | { readonly op: 'all' }
  | { readonly op: 'tri'; readonly key: number }
  | { readonly op: 'and' | 'or'; readonly args: readonly TrigramPlan[] };

export const ALL: TrigramPlan = { op: 'all' };

export function and(args: readonly TrigramPlan[]): TrigramPlan {
  const kept: TrigramPlan[] = [];
  const keys = new Set<number>();
  for (const arg of args) {
    for (const part of arg.op === 'and' ? arg.args : [arg]) {
      if (part.op === 'all') continue;
      if (part.op === 'tri') {
        if (keys.has(part.key)) continue;
        keys.add(part.key);
      }
      kept.push(part);
    }
  }
  return kept.length === 0 ? ALL : kept.length === 1 ? kept[0]! : { op: 'and', args: kept };
}

export function or(args: readonly TrigramPlan[]): TrigramPlan {
  const kept: TrigramPlan[] = [];
  for (const arg of args) {
    if (arg.op === 'all') return ALL; // one branch could match anything: so could the whole
    kept.push(...(arg.op === 'or' ? arg.args : [arg]));
  }
  return kept.length === 0 ? ALL : kept.length === 1 ? kept[0]! : { op: 'or', args: kept };
}

/**
 * Which characters contribute their bytes to trigrams. Case-insensitive: only ASCII (the index folds
 * ASCII letters) and characters without case; with Unicode case folding ('iu') also not k and s
 * (the Kelvin sign and long s match them). U+FFFD is never taken: the matcher decodes invalid
 * UTF-8 bytes to it, so it stands for bytes we cannot know.
 */
export interface CharRules {
  readonly caseInsensitive: boolean;
  readonly unicode: boolean;
}

export function usable(char: string, rules: CharRules): boolean {
  if (char === '\ufffd') return false;
  const code = char.codePointAt(0)!;
  if (code >= 0xd800 && code <= 0xdfff) return false; // a lone surrogate (non-Unicode regex)
  if (!rules.caseInsensitive) return true;
  if (code < 0x80) return !(rules.unicode && /[ks]/i.test(char));
  return char.toLowerCase() === char && char.toUpperCase() === char;
}

/** AND of the trigrams of a string's UTF-8 bytes, cut at characters that cannot be used. */
export function stringPlan(text: string, rules: CharRules): TrigramPlan {
  const parts: TrigramPlan[] = [];
  let run = '';
  const flush = () => {
    const bytes = Buffer.from(run, 'utf8');
    for (let i = 0; i + 2 < bytes.length; i += 1) {
      parts.push({ op: 'tri', key: trigramKey(bytes[i]!, bytes[i + 1]!, bytes[i + 2]!) });
    }
    run = '';
  };
  for (const char of text) {
    if (usable(char, rules)) run += char;
    else flush();
  }
  flush();
  return and(parts);
}
