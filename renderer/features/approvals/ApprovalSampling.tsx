import type { ApprovalRequest } from '../../../shared/ipc/approvals';
import { useT } from '../../i18n/i18n';
import { McpRequestSection } from './McpRequestSection';

/** A server's request for the model: every message it sends, its system prompt, and the token limit. */
export function ApprovalSampling({ sampling }: { readonly sampling: NonNullable<ApprovalRequest['sampling']> }) {
  const t = useT();
  return (
    <McpRequestSection
      className="approval-sampling"
      server={sampling.server}
      facts={[
        [
          t('approval.sampling.limit'),
          t('approval.sampling.tokens', { max: sampling.maxTokens, requested: sampling.requestedMaxTokens }),
        ],
      ]}
    >
      {sampling.systemPrompt !== undefined && (
        <>
          <h3>{t('approval.sampling.system')}</h3>
          <pre className="approval-mcp-arguments">{sampling.systemPrompt}</pre>
        </>
      )}
      <h3>{t('approval.sampling.messages')}</h3>
      <ol className="sampling-messages">
        {sampling.messages.map((message, index) => (
          <li key={index}>
            <strong>{t(`approval.sampling.role.${message.role}`)}</strong>
            <pre className="approval-mcp-arguments">{message.text}</pre>
          </li>
        ))}
      </ol>
    </McpRequestSection>
  );
}
