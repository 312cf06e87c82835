import { useEffect, useId, useState } from 'react';
import type { KeyboardEvent, ReactNode, RefObject } from 'react';
import { expandTemplate, promptCommand, templateVariables } from '../../../shared/mcp-attachments';
import type { McpAttachmentRequest } from '../../../shared/mcp-attachments';
import { mcpPicksActions } from './chat-actions';
import { draftActions } from './drafts-store';
import { ComposerMcpMenu } from './ComposerMcpMenu';
import { McpArgumentsDialog } from './McpArgumentsDialog';
import type { McpArgumentField } from './McpArgumentsDialog';
import { menuItems, offersAny, triggerAt } from './mcp-menu';
import type { MenuItem } from './mcp-menu';
import { useMcpPicksStore } from './mcp-picks-store';
import type { McpPick } from './mcp-picks-store';

const noPicks: readonly McpPick[] = [];

/** A pick waiting for its arguments (a prompt's, a template's variables) in the small form. */
interface AskingFor {
  readonly label: string;
  readonly fields: readonly McpArgumentField[];
  readonly finish: (values: Record<string, string>) => { request: McpAttachmentRequest; label: string };
}

export interface McpMenu {
  readonly picks: readonly McpPick[];
  /** A key in the box: true when the open menu took it (arrows, Enter, Tab, Esc). */
  keyDown(event: KeyboardEvent<HTMLTextAreaElement>): boolean;
  /** The box's text changed, the caret now here (a closed menu may open again). */
  typed(caret: number): void;
  /** The caret moved. */
  moved(caret: number): void;
  /** What the box says of the menu to assistive technology. */
  readonly boxProps: Record<string, string>;
  /** The menu and the arguments form, when shown. */
  readonly view: ReactNode;
}

/**
 * The composer's `@` and `/` menus (MCP resources and prompts): which trigger the caret is in, the
 * options it lists, the active one, what picking does (a chip; a form first when it takes
 * arguments), and the keys the open menu takes from the box.
 */
export function useMcpMenu(draftKey: string, draft: string, box: RefObject<HTMLTextAreaElement | null>): McpMenu {
  const picks = useMcpPicksStore((state) => state.pending[draftKey] ?? noPicks);
  const catalog = useMcpPicksStore((state) => state.catalog);
  const loadingCatalog = useMcpPicksStore((state) => state.loading);
  const menuId = useId();
  const [caret, setCaret] = useState(0);
  /** The trigger (by where it starts) the user closed with Esc: its menu stays closed. */
  const [dismissed, setDismissed] = useState<number | null>(null);
  /** The active option, for the trigger it was chosen in (a new trigger starts at the first). */
  const [activeAt, setActiveAt] = useState<{ readonly key: string | null; readonly index: number }>({
    key: null,
    index: 0,
  });
  const [asking, setAsking] = useState<AskingFor | null>(null);
  const trigger = triggerAt(draft, Math.min(caret, draft.length));
  const triggerKey = trigger === null ? null : `${trigger.kind}${trigger.start}`;
  const items = trigger === null ? [] : menuItems(catalog, trigger);
  const active = activeAt.key === triggerKey ? Math.min(activeAt.index, Math.max(0, items.length - 1)) : 0;
  const menuOpen =
    trigger !== null &&
    dismissed !== trigger.start &&
    (offersAny(catalog, trigger.kind) || (loadingCatalog && catalog === null));

  // Each menu that opens reads the servers' lists again: a server may have started or changed them.
  useEffect(() => {
    if (triggerKey !== null) void mcpPicksActions.refresh();
  }, [triggerKey]);

  /** Picking takes the `@word` or `/word` out of the draft; what needs arguments asks for them first. */
  const pick = (item: MenuItem) => {
    if (trigger === null) return;
    const rest = draft.slice(0, trigger.start) + draft.slice(trigger.end);
    draftActions.setDraft(draftKey, rest);
    const at = trigger.start;
    setCaret(at);
    // After React has put the shorter text in: the caret goes where the trigger was.
    requestAnimationFrame(() => box.current?.setSelectionRange(at, at));
    const { server } = item.entry;
    if (item.kind === 'resource') {
      mcpPicksActions.add(
        draftKey,
        { kind: 'resource', server, uri: item.entry.uri },
        item.entry.title ?? item.entry.name,
      );
    } else if (item.kind === 'template') {
      const { uriTemplate } = item.entry;
      setAsking({
        label: item.entry.title ?? item.entry.name,
        fields: templateVariables(uriTemplate).map((name) => ({ name, required: true })),
        finish: (values) => {
          const uri = expandTemplate(uriTemplate, values);
          return { request: { kind: 'resource', server, uri }, label: uri };
        },
      });
    } else {
      const { name } = item.entry;
      const label = promptCommand(server, name);
      const finish = (values: Record<string, string>) => ({
        request: { kind: 'prompt' as const, server, name, arguments: values },
        label,
      });
      if (item.entry.arguments.length === 0) {
        const done = finish({});
        mcpPicksActions.add(draftKey, done.request, done.label);
      } else {
        setAsking({
          label,
          fields: item.entry.arguments.map((argument) => ({
            name: argument.name,
            description: argument.description,
            required: argument.required === true,
          })),
          finish,
        });
      }
    }
    box.current?.focus();
  };

  /** While the menu is open the arrows, Enter, Tab and Esc are its own. */
  const keyDown = (event: KeyboardEvent<HTMLTextAreaElement>): boolean => {
    if (!menuOpen || trigger === null) return false;
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      if (items.length === 0) return false;
      const step = event.key === 'ArrowDown' ? 1 : -1;
      setActiveAt({ key: triggerKey, index: (active + step + items.length) % items.length });
      return true;
    }
    if ((event.key === 'Enter' || event.key === 'Tab') && !event.shiftKey) {
      const chosen = items[active];
      if (chosen === undefined) return false;
      pick(chosen);
      return true;
    }
    if (event.key === 'Escape') {
      setDismissed(trigger.start);
      return true;
    }
    return false;
  };

  return {
    picks,
    keyDown,
    typed: (at) => {
      setCaret(at);
      setDismissed(null);
    },
    moved: setCaret,
    boxProps: {
      'aria-autocomplete': 'list',
      ...(menuOpen
        ? {
            'aria-controls': menuId,
            ...(items.length > 0 ? { 'aria-activedescendant': `${menuId}-${active}` } : {}),
          }
        : {}),
    },
    view: (
      <>
        {menuOpen && (
          <ComposerMcpMenu
            id={menuId}
            trigger={trigger}
            items={items}
            active={active}
            catalog={catalog}
            loading={loadingCatalog}
            onPick={pick}
          />
        )}
        {asking !== null && (
          <McpArgumentsDialog
            label={asking.label}
            fields={asking.fields}
            onCancel={() => setAsking(null)}
            onDone={(values) => {
              const done = asking.finish(values);
              mcpPicksActions.add(draftKey, done.request, done.label);
              setAsking(null);
            }}
          />
        )}
      </>
    ),
  };
}
