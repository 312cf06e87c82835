import { promptCommand, templateVariables } from '../../../shared/mcp-attachments';
import type { McpCatalog } from '../../../shared/mcp-attachments';
import { useT } from '../../i18n/i18n';
import type { MenuItem, MenuTrigger } from './mcp-menu';

const itemTitle = (item: MenuItem): string =>
  item.kind === 'prompt'
    ? promptCommand(item.entry.server, item.entry.name)
    : `@${item.entry.title ?? item.entry.name}`;

/**
 * The `@` (resources) or `/` (prompts) menu above the composer. The box keeps the keyboard: arrows
 * move the active option (aria-activedescendant), Enter or Tab picks it, Esc closes the menu; a click
 * picks too.
 */
export function ComposerMcpMenu({
  id,
  trigger,
  items,
  active,
  catalog,
  loading,
  onPick,
}: {
  readonly id: string;
  readonly trigger: MenuTrigger;
  readonly items: readonly MenuItem[];
  readonly active: number;
  readonly catalog: McpCatalog | null;
  readonly loading: boolean;
  readonly onPick: (item: MenuItem) => void;
}) {
  const t = useT();
  const label = trigger.kind === '@' ? t('mcpPick.menuResources') : t('mcpPick.menuPrompts');
  const unanswered = catalog?.errors.map((error) => error.server) ?? [];
  return (
    <div className="composer-mcp-menu">
      <ul id={id} role="listbox" aria-label={label} className="composer-mcp-options">
        {items.map((item, index) => (
          <li
            key={`${item.kind}:${item.entry.server}:${item.kind === 'resource' ? item.entry.uri : item.kind === 'template' ? item.entry.uriTemplate : item.entry.name}`}
            id={`${id}-${index}`}
            role="option"
            aria-selected={index === active}
            className={index === active ? 'composer-mcp-option composer-mcp-option-active' : 'composer-mcp-option'}
            // mousedown, not click: the box must not lose the keyboard (and its caret) first.
            onMouseDown={(event) => {
              event.preventDefault();
              onPick(item);
            }}
          >
            <span className="composer-mcp-option-title">{itemTitle(item)}</span>
            <span className="composer-mcp-option-detail">
              {item.kind === 'resource' && item.entry.uri}
              {item.kind === 'template' &&
                `${item.entry.uriTemplate} · ${t('mcpPick.template', { names: templateVariables(item.entry.uriTemplate).join(', ') })}`}
              {item.kind === 'prompt' && (item.entry.description ?? item.entry.title ?? '')}
              {' · '}
              {t('mcpPick.fromServer', { server: item.entry.server })}
            </span>
          </li>
        ))}
      </ul>
      {items.length === 0 && (
        <p className="composer-mcp-note" role="status">
          {loading ? t('mcpPick.loading') : t('mcpPick.none', { query: trigger.query })}
        </p>
      )}
      {unanswered.length > 0 && (
        <p className="composer-mcp-note">{t('mcpPick.unanswered', { servers: unanswered.join(', ') })}</p>
      )}
    </div>
  );
}
