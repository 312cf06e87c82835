import { useT } from '../../i18n/i18n';

/**
 * For a SOUL.md change: the persona section of the system prompt as it will read after the change
 * (caps and truncation marker applied), so the user sees what the assistant will become.
 */
export function PromptPreview({ text }: { readonly text: string }) {
  const t = useT();
  return (
    <details className="approval-prompt-preview" data-testid="prompt-preview">
      <summary>{t('approval.promptPreview')}</summary>
      <p className="muted">{t('approval.promptPreviewHint')}</p>
      <pre tabIndex={0} aria-label={t('approval.promptPreview')}>
        {text}
      </pre>
    </details>
  );
}
