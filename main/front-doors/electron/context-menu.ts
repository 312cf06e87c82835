import type { ContextMenuParams, Menu, MenuItemConstructorOptions, WebContents } from 'electron';
import { nativeText } from '../../../shared/i18n/native-strings';
import type { NativeText } from '../../../shared/i18n/native-strings';
import { isSafeExternalUrl } from './security';

export interface ContextMenuActions {
  replaceMisspelling(word: string): void;
  addToDictionary(word: string): void;
  /** Only ever called with a URL isSafeExternalUrl accepted. */
  openExternal(url: string): void;
  copyText(text: string): void;
}

export type MenuParams = Pick<
  ContextMenuParams,
  'misspelledWord' | 'dictionarySuggestions' | 'linkURL' | 'isEditable' | 'selectionText' | 'editFlags'
>;

/** How many spelling suggestions to offer, as Chromium's own menu does. */
const maxSuggestions = 5;

/**
 * The right-click menu Electron leaves out: spelling suggestions (spellcheck is on, but without a
 * menu it offers nothing), link actions, and the edit commands. Pure, so each case is tested.
 */
export function contextMenuTemplate(
  params: MenuParams,
  actions: ContextMenuActions,
  t: NativeText = nativeText('en'),
): MenuItemConstructorOptions[] {
  const sections: MenuItemConstructorOptions[][] = [];
  if (params.isEditable && params.misspelledWord !== '') {
    const word = params.misspelledWord;
    const suggestions = params.dictionarySuggestions.slice(0, maxSuggestions);
    sections.push([
      ...(suggestions.length === 0
        ? [{ label: t('context.noGuesses'), enabled: false }]
        : suggestions.map((suggestion) => ({
            label: suggestion,
            click: () => actions.replaceMisspelling(suggestion),
          }))),
      { label: t('context.addToDictionary'), click: () => actions.addToDictionary(word) },
    ]);
  }
  if (params.linkURL !== '' && isSafeExternalUrl(params.linkURL)) {
    const url = params.linkURL;
    sections.push([
      { label: t('context.openLink'), click: () => actions.openExternal(url) },
      { label: t('context.copyLink'), click: () => actions.copyText(url) },
    ]);
  }
  const flags = params.editFlags;
  if (params.isEditable) {
    sections.push([
      { role: 'cut', label: t('menu.cut'), enabled: flags.canCut },
      { role: 'copy', label: t('menu.copy'), enabled: flags.canCopy },
      { role: 'paste', label: t('menu.paste'), enabled: flags.canPaste },
      { role: 'selectAll', label: t('menu.selectAll'), enabled: flags.canSelectAll },
    ]);
  } else if (params.selectionText.trim() !== '') {
    sections.push([
      { role: 'copy', label: t('menu.copy'), enabled: flags.canCopy },
      { role: 'selectAll', label: t('menu.selectAll') },
    ]);
  }
  return sections.flatMap((section, index) => (index === 0 ? section : [{ type: 'separator' as const }, ...section]));
}

/** Shows the menu on right click (or the context-menu key) in the window's page, in the language of the moment. */
export function installContextMenu(
  contents: Pick<WebContents, 'on'>,
  menu: Pick<typeof Menu, 'buildFromTemplate'>,
  actions: ContextMenuActions,
  t: NativeText = nativeText('en'),
): void {
  contents.on('context-menu', (_event, params) => {
    const template = contextMenuTemplate(params, actions, t);
    if (template.length > 0) menu.buildFromTemplate(template).popup();
  });
}
