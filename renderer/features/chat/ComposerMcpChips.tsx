import { useT } from '../../i18n/i18n';
import { AttachedList } from './AttachedList';
import type { AttachedItems } from './AttachedList';
import type { McpPick } from './mcp-picks-store';

/** The resources and prompts picked for the next message, each a chip with a button that removes it. */
export function ComposerMcpChips({ items, onRemove }: AttachedItems<McpPick>) {
  const t = useT();
  return (
    <AttachedList
      items={items}
      label={t('mcpPick.attached')}
      className="mcp-chips composer-mcp-chips"
      itemClassName="mcp-chip"
      itemTitle={(pick) => (pick.request.kind === 'resource' ? pick.request.uri : pick.label)}
      removeClassName="mcp-chip-remove"
      removeLabel={(pick) => t('mcpPick.remove', { label: pick.label })}
      onRemove={onRemove}
    >
      {(pick) => (
        <>
          <span className="mcp-chip-label">{pick.request.kind === 'resource' ? `@${pick.label}` : pick.label}</span>
          <span className="mcp-chip-server">{t('mcpPick.fromServer', { server: pick.request.server })}</span>
        </>
      )}
    </AttachedList>
  );
}
