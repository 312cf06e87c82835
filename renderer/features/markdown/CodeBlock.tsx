import { memo, useEffect, useState } from 'react';
import { useT } from '../../i18n/i18n';
import { loadedHighlighter, loadHighlighter, MAX_HIGHLIGHT_CHARS } from './code-highlighter';
import type { Highlight } from './code-highlighter';
import { CopyButton } from './CopyButton';

interface CodeBlockProps {
  readonly code: string;
  /** From the fence's info string (```ts); empty when none was given. */
  readonly language: string;
}

/** A fenced code block: a bar with the language and a copy button, then the (highlighted) code. */
export const CodeBlock = memo(function CodeBlock({ code, language }: CodeBlockProps) {
  const t = useT();
  const [highlight, setHighlight] = useState<Highlight | null>(loadedHighlighter);
  const wantsHighlight = language !== '' && code.length <= MAX_HIGHLIGHT_CHARS;

  useEffect(() => {
    if (!wantsHighlight || highlight !== null) return;
    let live = true;
    // A failed chunk load leaves the code plain, which is still correct.
    loadHighlighter().then(
      (loaded) => live && setHighlight(() => loaded),
      () => undefined,
    );
    return () => {
      live = false;
    };
  }, [wantsHighlight, highlight]);

  const highlighted = wantsHighlight && highlight !== null ? highlight(code, language) : null;
  return (
    <div className="code-block">
      <div className="code-block-bar">
        <span className="code-block-language">{language === '' ? t('markdown.code') : language}</span>
        <CopyButton text={code} label={t('markdown.copyCode')} />
      </div>
      <pre tabIndex={0}>
        <code className={highlighted === null ? undefined : `hljs language-${language}`}>{highlighted ?? code}</code>
      </pre>
    </div>
  );
});
