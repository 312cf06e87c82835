import type { ReactNode } from 'react';

/**
 * A field's label for screen readers only, for a field whose place and placeholder already say what
 * it is to the eye: a real `<label for>`, so the field keeps its accessible name and a click on it.
 */
export function HiddenLabel({ htmlFor, children }: { readonly htmlFor: string; readonly children: ReactNode }) {
  return (
    <label htmlFor={htmlFor} className="visually-hidden">
      {children}
    </label>
  );
}
