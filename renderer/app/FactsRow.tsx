import type { ReactNode } from 'react';

/** One term and its value in a `<dl className="facts">`: the term in the first column, the value beside it. */
export function FactsRow({ term, children }: { readonly term: ReactNode; readonly children: ReactNode }) {
  return (
    <div className="facts-row">
      <dt>{term}</dt>
      <dd>{children}</dd>
    </div>
  );
}
