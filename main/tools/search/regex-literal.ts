/**
 * The longest piece of plain text every match of a regex must contain, or undefined when none can be
 * told safely. Conservative on purpose: alternation anywhere, or anything that can match a line
 * break, means no answer (a line-by-line prefilter would then miss matches); text inside groups is
 * never taken (a group may be optional).
 */
export function requiredLiteral(source: string): string | undefined {
  if (source.includes('|') || /\\[sSnrWDpPu]|\[\^/.test(source)) return undefined;
  const runs: string[] = [];
  let run = '';
  const end = () => {
    if (run !== '') runs.push(run);
    run = '';
  };
  let depth = 0;
  for (let i = 0; i < source.length; i += 1) {
    const char = source[i]!;
    if (char === '\\') {
      const next = source[i + 1] ?? '';
      i += 1;
      // An escaped punctuation mark is itself; an escape letter or digit is a class, anchor or reference.
      if (depth === 0 && /[^A-Za-z0-9]/.test(next) && next !== '') run += next;
      else end();
      continue;
    }
    if (char === '[') {
      end();
      for (i += 1; i < source.length && source[i] !== ']'; i += 1) if (source[i] === '\\') i += 1;
      continue;
    }
    if (char === '(') {
      end();
      depth += 1;
      continue;
    }
    if (char === ')') {
      depth -= 1;
      end();
      continue;
    }
    if (char === '*' || char === '?' || char === '{') {
      // The character before is optional (or repeated a counted number of times): drop it.
      run = run.slice(0, -1);
      end();
      if (char === '{') while (i < source.length && source[i] !== '}') i += 1;
      continue;
    }
    if (char === '+') {
      end();
      continue;
    }
    if (char === '.' || char === '^' || char === '$') {
      end();
      continue;
    }
    if (depth === 0) run += char;
    else end();
  }
  end();
  const longest = runs.reduce((best, candidate) => (candidate.length > best.length ? candidate : best), '');
  return longest.length >= 3 ? longest : undefined;
}
