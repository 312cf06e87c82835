/** What the one lazy Monaco boundary can show: a diff (approvals) or a read-only file (the viewer). */
export type CodeViewProps =
  | {
      readonly kind: 'diff';
      /** Names the models (and picks the colouring); unique per request so two views never share one. */
      readonly modelKey: string;
      readonly path: string;
      readonly original: string;
      readonly modified: string;
      readonly layout: 'side-by-side' | 'inline';
      /** The right side accepts typing (edit-then-approve). */
      readonly editable: boolean;
      readonly theme: 'light' | 'dark';
      readonly label: string;
      readonly onModifiedChange: (text: string) => void;
      /** Ctrl/Cmd+Enter inside the editor (Monaco would otherwise keep the keystroke). */
      readonly onSubmit: () => void;
    }
  | {
      readonly kind: 'file';
      readonly path: string;
      readonly text: string;
      readonly theme: 'light' | 'dark';
      readonly label: string;
    };

/**
 * What the lazy editor tells its boundary once it shows `path`: a file view when its editor has
 * mounted, a diff once the diff is computed too. Until then the boundary is aria-busy.
 */
export interface CodeViewReady {
  readonly onReady: (path: string) => void;
}
