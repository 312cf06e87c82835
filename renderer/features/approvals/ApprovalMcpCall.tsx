import type { ApprovalRequest } from '../../../shared/ipc/approvals';
import { useT } from '../../i18n/i18n';
import { McpRequestSection } from './McpRequestSection';

/** Arguments longer than this start folded: the card stays readable, every character one click away. */
const FOLDED_CHARS = 1500;

/**
 * A call of a tool of the user's MCP server: which server, which tool, what the server says of it
 * (its annotations, a hint the server gives, not a guarantee), and every argument as formatted JSON.
 */
export function ApprovalMcpCall({ mcp }: { readonly mcp: NonNullable<ApprovalRequest['mcp']> }) {
  const t = useT();
  const hints = Object.entries(mcp.annotations).filter(([name]) => name !== 'title');
  const args = <pre className="approval-mcp-arguments">{mcp.arguments}</pre>;
  return (
    <McpRequestSection
      className="approval-mcp"
      server={mcp.server}
      facts={[
        [
          t('approval.mcpTool'),
          <>
            {mcp.tool}
            {mcp.title === undefined ? null : <span className="muted"> ({mcp.title})</span>}
          </>,
        ],
        ...(hints.length > 0
          ? [[t('approval.mcpHints'), hints.map(([name, value]) => `${name}: ${String(value)}`).join(', ')] as const]
          : []),
      ]}
    >
      <h3>{t('approval.mcpArguments')}</h3>
      {mcp.arguments.length > FOLDED_CHARS ? (
        <details>
          <summary>
            <code>{mcp.arguments.slice(0, 200)}…</code>
          </summary>
          {args}
        </details>
      ) : (
        args
      )}
    </McpRequestSection>
  );
}
