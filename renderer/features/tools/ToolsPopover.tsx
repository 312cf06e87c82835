import { usePopover } from '../../app/use-popover';
import { useT } from '../../i18n/i18n';
import { ToolCard } from './ToolCard';
import { useToolsStore } from './tools-store';

/** Exactly the tools the model is offered right now (tools.list / tools.changed), with their policy. */
export function ToolsPopover() {
  const t = useT();
  const list = useToolsStore((state) => state.list);
  const error = useToolsStore((state) => state.error);
  const { open, setOpen, close, panelId, button, panel } = usePopover();

  return (
    <div className="popover-anchor">
      <button
        ref={button}
        type="button"
        className="button"
        aria-expanded={open}
        aria-controls={panelId}
        onClick={() => setOpen(!open)}
      >
        {t('tools.button', { count: list?.tools.length ?? 0 })}
      </button>
      {open && (
        <div
          ref={panel}
          id={panelId}
          className="popover tools-popover"
          role="dialog"
          aria-label={t('tools.title')}
          // In the tab order: the list scrolls, and only a focusable region scrolls by keyboard.
          tabIndex={0}
          onKeyDown={(event) => {
            if (event.key === 'Escape') {
              event.stopPropagation();
              close();
            }
          }}
        >
          <h2 className="popover-title">{t('tools.title')}</h2>
          {list !== null && (
            <p className="muted" data-testid="tools-memory-state">
              {t(list.memoryEnabled ? 'tools.memoryOn' : 'tools.memoryOff')}
            </p>
          )}
          {error !== null && (
            <p className="form-error" role="alert">
              {error.message}
            </p>
          )}
          {list !== null && list.tools.length === 0 && <p>{t('tools.none')}</p>}
          {list !== null && list.tools.length > 0 && (
            <ul className="tool-list" aria-label={t('tools.title')}>
              {list.tools.map((tool) => (
                <ToolCard key={tool.name} tool={tool} />
              ))}
            </ul>
          )}
        </div>
      )}
    </div>
  );
}
