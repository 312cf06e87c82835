import type { MessageKey } from '../../i18n/en';

/** Every keyboard shortcut the UI has, for the help popover (and for the README). */
export const shortcutList: readonly { readonly keys: string; readonly what: MessageKey }[] = [
  { keys: '?', what: 'shortcuts.help' },
  { keys: 'Ctrl/⌘ + ,', what: 'shortcuts.settings' },
  { keys: 'Ctrl/⌘ + N', what: 'shortcuts.newConversation' },
  { keys: 'Ctrl/⌘ + O', what: 'shortcuts.openFolder' },
  { keys: 'Ctrl/⌘ + B', what: 'shortcuts.toggleFiles' },
  { keys: 'Ctrl/⌘ + Shift + B', what: 'shortcuts.toggleConversations' },
  { keys: 'F2', what: 'shortcuts.renameConversation' },
  { keys: 'Delete', what: 'shortcuts.trashConversation' },
  { keys: 'Ctrl/⌘ + Enter', what: 'shortcuts.approve' },
  { keys: 'Esc', what: 'shortcuts.reject' },
  { keys: '↑ ↓', what: 'shortcuts.treeMove' },
  { keys: '→ ←', what: 'shortcuts.treeExpand' },
  { keys: 'Enter', what: 'shortcuts.treeOpen' },
  { keys: 'Home / End', what: 'shortcuts.treeEnds' },
  { keys: 'Ctrl + M', what: 'shortcuts.tabFocus' },
];

/** The '?' key opens help only when it is not typed into a field or an editor. */
export function isTypingTarget(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  return (
    target.isContentEditable ||
    ['INPUT', 'TEXTAREA', 'SELECT'].includes(target.tagName) ||
    target.closest('.monaco-editor') !== null
  );
}
