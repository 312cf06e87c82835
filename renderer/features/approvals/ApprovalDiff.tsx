import type { ApprovalRequest } from '../../../shared/ipc/approvals';
import { LazyCodeView } from '../../code-view/LazyCodeView';
import { familiar } from '../../ipc/familiar';
import { useT } from '../../i18n/i18n';
import { useResolvedTheme } from '../settings/apply-appearance';
import { approvalsActions, useApprovalsStore } from './approvals-store';

/** Before/after in Monaco's diff view; in edit mode the right side is the user's text. */
export function ApprovalDiff({ request }: { readonly request: ApprovalRequest }) {
  const t = useT();
  const layout = useApprovalsStore((state) => state.layout);
  const editing = useApprovalsStore((state) => state.draft.editing);
  const editedText = useApprovalsStore((state) => state.draft.editedText);
  const theme = useResolvedTheme();
  const path = request.paths[0] ?? '';
  return (
    <section className="approval-diff" aria-label={t('approval.diff')}>
      <div className="approval-diff-toolbar">
        <div role="group" aria-label={t('approval.layout')} className="segmented">
          <button
            type="button"
            className="button button-small"
            aria-pressed={layout === 'side-by-side'}
            onClick={() => approvalsActions.setLayout('side-by-side')}
          >
            {t('approval.sideBySide')}
          </button>
          <button
            type="button"
            className="button button-small"
            aria-pressed={layout === 'inline'}
            onClick={() => approvalsActions.setLayout('inline')}
          >
            {t('approval.inline')}
          </button>
        </div>
        <span className="muted">{editing ? t('approval.editingHint') : t('approval.diffHint')}</span>
      </div>
      <LazyCodeView
        // A fresh editor when edit mode starts or ends: discarding edits restores the proposal.
        key={editing ? 'editing' : 'review'}
        kind="diff"
        modelKey={request.id}
        path={path}
        original={request.before ?? ''}
        modified={editedText ?? request.after ?? ''}
        layout={layout}
        editable={editing}
        theme={theme}
        label={t(editing ? 'approval.diffEditingLabel' : 'approval.diffLabel', { path })}
        onModifiedChange={approvalsActions.setEditedText}
        onSubmit={() => void approvalsActions.approve(familiar)}
      />
    </section>
  );
}
