import { CloseButton } from '../../app/CloseButton';
import { useT } from '../../i18n/i18n';
import type { McpPick } from './mcp-picks-store';

/** The resources and prompts picked for the next message, each a chip with a button that removes it. */
export function ComposerMcpChips({
  picks,
  onRemove,
}: {
  readonly picks: readonly McpPick[];
  readonly onRemove: (id: string) => void;
}) {
  const t = useT();
  if (picks.length === 0) return null;
  return (
    <ul className="mcp-chips composer-mcp-chips" aria-label={t('mcpPick.attached')}>
      {picks.map((pick) => (
        <li key={pick.id} className="mcp-chip" title={pick.request.kind === 'resource' ? pick.request.uri : pick.label}>
          <span className="mcp-chip-label">{pick.request.kind === 'resource' ? `@${pick.label}` : pick.label}</span>
          <span className="mcp-chip-server">{t('mcpPick.fromServer', { server: pick.request.server })}</span>
          <CloseButton
            look="small"
            className="mcp-chip-remove"
            label={t('mcpPick.remove', { label: pick.label })}
            onClick={() => onRemove(pick.id)}
          />
        </li>
      ))}
    </ul>
  );
}
