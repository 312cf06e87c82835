import type { ReactNode } from 'react';

/** Returns highlighted React nodes, or null when the language is unknown (the caller shows plain text). */
export type Highlight = (code: string, language: string) => ReactNode | null;

/** Longer code is shown plain: highlighting it on every streamed delta would cost more than it gives. */
export const MAX_HIGHLIGHT_CHARS = 60_000;

let ready: Highlight | null = null;
let loading: Promise<Highlight> | null = null;

/**
 * The grammars (highlight.js's ~35 common languages, via lowlight) are a separate chunk fetched the
 * first time a reply contains a code block with a language: the first screen never pays for them.
 */
export function loadHighlighter(): Promise<Highlight> {
  loading ??= import('./lowlight-highlight').then((module) => {
    ready = module.highlightToReact;
    return ready;
  });
  return loading;
}

/** The highlighter if it has loaded already, so code blocks render highlighted without a flash. */
export const loadedHighlighter = (): Highlight | null => ready;
