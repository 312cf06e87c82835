import { Component, lazy, Suspense, useState } from 'react';
import type { ReactNode } from 'react';
import { useT } from '../i18n/i18n';
import type { CodeViewProps } from './code-view-props';

// The one React.lazy boundary: Monaco (~1 MB gz) loads the first time a diff or a file is shown.
const CodeView = lazy(() => import('./CodeView.lazy'));

interface BoundaryProps {
  readonly fallback: ReactNode;
  readonly children: ReactNode;
  readonly onError: () => void;
}

/** If the editor chunk cannot load, show the plain text instead of a broken dialog. */
class EditorErrorBoundary extends Component<BoundaryProps, { failed: boolean }> {
  override state = { failed: false };
  static getDerivedStateFromError() {
    return { failed: true };
  }
  override componentDidCatch() {
    this.props.onError();
  }
  override render() {
    return this.state.failed ? this.props.fallback : this.props.children;
  }
}

function PlainText({ props }: { props: CodeViewProps }) {
  const t = useT();
  return (
    <div className="code-view-plain" role="note">
      <p className="muted">{t('code.unavailable')}</p>
      <pre>{props.kind === 'diff' ? props.modified : props.text}</pre>
    </div>
  );
}

/**
 * Monaco behind the lazy boundary. The view is aria-busy until the editor shows this path (a diff:
 * computed) or the plain-text fallback replaced it: assistive technology, and the e2e tests
 * (e2e/fixtures/code-view.ts), wait for that instead of guessing how long a first load takes.
 */
export function LazyCodeView(props: CodeViewProps) {
  const t = useT();
  const [shown, setShown] = useState<string | null>(null);
  const [failed, setFailed] = useState(false);
  return (
    <div className="code-view" data-testid="code-view" aria-busy={!failed && shown !== props.path}>
      <EditorErrorBoundary fallback={<PlainText props={props} />} onError={() => setFailed(true)}>
        <Suspense
          fallback={
            <p className="code-view-loading" role="status">
              {t('code.loading')}
            </p>
          }
        >
          <CodeView {...props} onReady={setShown} />
        </Suspense>
      </EditorErrorBoundary>
    </div>
  );
}
