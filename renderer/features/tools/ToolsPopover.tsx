import { FormError } from '../../app/FormError';
import { Popover } from '../../app/Popover';
import { useT } from '../../i18n/i18n';
import { ToolCard } from './ToolCard';
import { useToolsStore } from './tools-store';
import { useStoreFields } from '../../app/use-store-fields';

/** Exactly the tools the model is offered right now (tools.list / tools.changed), with their policy. */
export function ToolsPopover() {
  const t = useT();
  const { list, error } = useStoreFields(['list', 'error'], useToolsStore);

  return (
    <Popover
      label={t('tools.button', { count: list?.tools.length ?? 0 })}
      title={t('tools.title')}
      className="tools-popover"
      scrollable
    >
      {list !== null && (
        <p className="muted" data-testid="tools-memory-state">
          {t(list.memoryEnabled ? 'tools.memoryOn' : 'tools.memoryOff')}
        </p>
      )}
      <FormError message={error?.message} />
      {list !== null && list.tools.length === 0 && <p>{t('tools.none')}</p>}
      {list !== null && list.tools.length > 0 && (
        <ul className="tool-list" aria-label={t('tools.title')}>
          {list.tools.map((tool) => (
            <ToolCard key={tool.name} tool={tool} />
          ))}
        </ul>
      )}
    </Popover>
  );
}
