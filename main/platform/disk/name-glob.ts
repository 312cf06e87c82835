import picomatch from 'picomatch';

/**
 * A glob as a predicate, with the common shapes (`name`, `*.ext`, `prefix*`) answered by string
 * comparisons instead of picomatch's regex: walks test every entry of a tree against every rule, and
 * these shapes are most rules.
 */
export function globPredicate(glob: string, nocase: boolean): (text: string) => boolean {
  const fold = (text: string) => (nocase ? text.toLowerCase() : text);
  const pattern = fold(glob);
  const body = pattern.replace(/^\*|\*$/g, '');
  const leading = pattern.startsWith('*');
  const trailing = pattern.endsWith('*') && pattern.length > 1;
  // A '*' never crosses a '/', so the string shortcuts only apply to single names.
  const plain = body.length > 0 && !/[*?[\]{}()!+@\\]/.test(body) && (!(leading || trailing) || !body.includes('/'));
  if (plain) {
    if (leading && trailing) return (text) => fold(text).includes(body);
    if (leading) return (text) => fold(text).endsWith(body);
    if (trailing) return (text) => fold(text).startsWith(body);
    return (text) => fold(text) === body;
  }
  const re = picomatch.makeRe(glob, { dot: true, nocase });
  return (text) => re.test(text);
}
