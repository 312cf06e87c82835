/**
 * A tokenizer-free token estimate, good enough to decide what fits a context window (the provider
 * still has the last word: a context_too_long error is mapped and shown). The heuristic:
 * ASCII ≈ 4 characters per token (English prose and code with BPE tokenizers); CJK ideographs, kana
 * and Hangul ≈ 1 token each; other non-ASCII letters (Cyrillic, Greek, accented Latin) ≈ 2
 * characters per token, since tokenizers split them more finely than English.
 */
export function estimateTokens(text: string): number {
  let ascii = 0;
  let cjk = 0;
  let other = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code < 0x80) ascii++;
    else if (isCjk(code)) cjk++;
    // The low half of a surrogate pair belongs to the character counted at its high half.
    else if (code < 0xdc00 || code > 0xdfff) other++;
  }
  return Math.ceil(ascii / 4 + cjk + other / 2);
}

function isCjk(code: number): boolean {
  return (
    (code >= 0x3040 && code <= 0x30ff) || // hiragana, katakana
    (code >= 0x3400 && code <= 0x4dbf) || // CJK extension A
    (code >= 0x4e00 && code <= 0x9fff) || // CJK unified ideographs
    (code >= 0xac00 && code <= 0xd7af) || // Hangul syllables
    (code >= 0xf900 && code <= 0xfaff) || // CJK compatibility ideographs
    (code >= 0xff00 && code <= 0xffef) // full-width forms
  );
}
