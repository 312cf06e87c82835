/**
 * A tokenizer-free estimate: about 4 characters per token for Latin and Cyrillic text, about one
 * token per character for CJK. Good enough for budgets and meters; never used for billing.
 */
export function estimateTokens(text: string): number {
  let cjk = 0;
  for (const char of text) {
    const code = char.codePointAt(0) ?? 0;
    if (
      (code >= 0x3040 && code <= 0x9fff) ||
      (code >= 0xac00 && code <= 0xd7af) ||
      (code >= 0xf900 && code <= 0xfaff)
    ) {
      cjk += 1;
    }
  }
  return cjk + Math.ceil((text.length - cjk) / 4);
}
