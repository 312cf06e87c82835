import { toJsxRuntime } from 'hast-util-to-jsx-runtime';
import { common, createLowlight } from 'lowlight';
import type { ReactNode } from 'react';
import { Fragment, jsx, jsxs } from 'react/jsx-runtime';

// Loaded lazily by code-highlighter.ts. lowlight yields a syntax tree (not an HTML string), so the
// highlighted code is built as React elements: nothing is ever parsed as HTML.
const lowlight = createLowlight(common);

export function highlightToReact(code: string, language: string): ReactNode | null {
  if (!lowlight.registered(language)) return null;
  // The package types its result as the global JSX.Element, which React 19's types no longer declare.
  return toJsxRuntime(lowlight.highlight(language, code), { Fragment, jsx, jsxs }) as ReactNode;
}
