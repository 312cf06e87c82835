import type { ApprovalFile, ApprovalRequest } from '../../../shared/ipc/approvals';
import { Segmented } from '../../app/Segmented';
import { LazyCodeView } from '../../code-view/LazyCodeView';
import { familiar } from '../../ipc/familiar';
import { useT } from '../../i18n/i18n';
import { useResolvedTheme } from '../settings/apply-appearance';
import { approvalsActions, useApprovalsStore } from './approvals-store';
import type { DiffLayout } from './approvals-store';

const diffLayouts: readonly DiffLayout[] = ['side-by-side', 'inline'];

/**
 * Before/after in Monaco's diff view; in edit mode the right side is the user's text. With `file`,
 * one file of a multi-file change, never editable (such a change applies as the tool computed it).
 */
export function ApprovalDiff({ request, file }: { readonly request: ApprovalRequest; readonly file?: ApprovalFile }) {
  const t = useT();
  const layout = useApprovalsStore((state) => state.layout);
  const draftEditing = useApprovalsStore((state) => state.draft.editing);
  const editedText = useApprovalsStore((state) => state.draft.editedText);
  const theme = useResolvedTheme();
  const editing = draftEditing && file === undefined;
  const path = file?.path ?? request.paths[0] ?? '';
  return (
    <section className="approval-diff" aria-label={t('approval.diff')}>
      <div className="approval-diff-toolbar">
        <Segmented
          label={t('approval.layout')}
          options={diffLayouts}
          value={layout}
          optionLabel={(option) => t(option === 'inline' ? 'approval.inline' : 'approval.sideBySide')}
          onChoose={approvalsActions.setLayout}
        />
        <span className="muted">{editing ? t('approval.editingHint') : t('approval.diffHint')}</span>
      </div>
      <LazyCodeView
        // A fresh editor when edit mode starts or ends: discarding edits restores the proposal.
        // Another file of a multi-file change: a fresh editor too (its models go with the old one).
        key={`${editing ? 'editing' : 'review'}:${path}`}
        kind="diff"
        modelKey={request.id}
        path={path}
        original={file?.before ?? request.before ?? ''}
        modified={file?.after ?? editedText ?? request.after ?? ''}
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
