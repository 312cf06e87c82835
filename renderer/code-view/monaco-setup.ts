// Imported only by CodeView.lazy.tsx, so all of Monaco lands in the lazy chunk (TOOLCHAIN.md "Monaco").
import * as monaco from 'monaco-editor/editor';
import 'monaco-editor/features/register.all';
import 'monaco-editor/languages/definitions/register.all';
import EditorWorker from 'monaco-editor/editor/editor.worker?worker';
import { loader } from '@monaco-editor/react';

// Without getWorker Vite inlines the worker as a data: URL, which the CSP (rightly) refuses to run.
// Language workers (TypeScript, JSON...) are left out on purpose: viewing and diffing need only
// the editor worker and the Monarch colouring registered above.
globalThis.MonacoEnvironment = { getWorker: () => new EditorWorker() };
// Use the bundled copy: @monaco-editor/react would otherwise fetch Monaco from a CDN.
loader.config({ monaco });

export { monaco };

/** The language Monaco colours a file with, from its name or extension; plain text otherwise. */
export function languageForPath(path: string): string {
  const name = path.slice(path.lastIndexOf('/') + 1);
  const lower = name.toLowerCase();
  const extension = lower.includes('.') ? lower.slice(lower.lastIndexOf('.')) : null;
  for (const language of monaco.languages.getLanguages()) {
    if (language.filenames?.some((candidate) => candidate.toLowerCase() === lower) === true) return language.id;
  }
  if (extension !== null) {
    for (const language of monaco.languages.getLanguages()) {
      if (language.extensions?.some((candidate) => candidate.toLowerCase() === extension) === true) return language.id;
    }
  }
  return 'plaintext';
}
