import type { MenuItemConstructorOptions } from 'electron';
import { describe, expect, it, vi } from 'vitest';
import { nativeText } from '../../../shared/i18n/native-strings';
import { contextMenuTemplate, installContextMenu } from './context-menu';
import type { MenuParams } from './context-menu';

const allFlags = {
  canUndo: true,
  canRedo: true,
  canCut: true,
  canCopy: true,
  canPaste: true,
  canDelete: true,
  canSelectAll: true,
  canEditRichly: false,
};

const params = (overrides: Partial<MenuParams>): MenuParams => ({
  misspelledWord: '',
  dictionarySuggestions: [],
  linkURL: '',
  isEditable: false,
  selectionText: '',
  editFlags: allFlags,
  ...overrides,
});

const actions = () => ({
  replaceMisspelling: vi.fn(),
  addToDictionary: vi.fn(),
  openExternal: vi.fn(),
  copyText: vi.fn(),
});

const click = (item: MenuItemConstructorOptions | undefined) => item?.click?.({} as never, undefined, {});
const labels = (items: MenuItemConstructorOptions[]) => items.map((item) => item.role ?? item.label ?? item.type);

describe('the context menu', () => {
  it('offers spelling suggestions in a text field, replacing the word or learning it', () => {
    const act = actions();
    const template = contextMenuTemplate(
      params({ isEditable: true, misspelledWord: 'teh', dictionarySuggestions: ['the', 'ten', 'tea'] }),
      act,
    );
    expect(labels(template)).toEqual([
      'the',
      'ten',
      'tea',
      'Add to Dictionary',
      'separator',
      'cut',
      'copy',
      'paste',
      'selectAll',
    ]);
    click(template[0]);
    expect(act.replaceMisspelling).toHaveBeenCalledWith('the');
    click(template[3]);
    expect(act.addToDictionary).toHaveBeenCalledWith('teh');
  });

  it('says so when there is no guess', () => {
    const template = contextMenuTemplate(params({ isEditable: true, misspelledWord: 'zzqx' }), actions());
    expect(template[0]).toMatchObject({ label: 'No Guesses Found', enabled: false });
  });

  it('opens and copies http(s) links, and offers nothing for other schemes', () => {
    const act = actions();
    const template = contextMenuTemplate(params({ linkURL: 'https://example.com/a' }), act);
    expect(labels(template)).toEqual(['Open Link in Browser', 'Copy Link']);
    click(template[0]);
    click(template[1]);
    expect(act.openExternal).toHaveBeenCalledWith('https://example.com/a');
    expect(act.copyText).toHaveBeenCalledWith('https://example.com/a');
    expect(contextMenuTemplate(params({ linkURL: 'file:///etc/passwd' }), act)).toEqual([]);
  });

  it('greys out what cannot be done now, and offers copy for selected text outside fields', () => {
    const template = contextMenuTemplate(
      params({ isEditable: true, editFlags: { ...allFlags, canCut: false, canCopy: false } }),
      actions(),
    );
    expect(template.find((item) => item.role === 'cut')).toMatchObject({ enabled: false });
    expect(labels(contextMenuTemplate(params({ selectionText: 'some words' }), actions()))).toEqual([
      'copy',
      'selectAll',
    ]);
  });

  it('speaks the chosen language, the edit roles included', () => {
    const zh = nativeText('zh');
    const spelling = contextMenuTemplate(params({ isEditable: true, misspelledWord: 'zzqx' }), actions(), zh);
    expect(spelling[0]).toMatchObject({ label: '无拼写建议' });
    expect(spelling.find((item) => item.role === 'paste')).toMatchObject({ label: '粘贴' });
    const link = contextMenuTemplate(params({ linkURL: 'https://example.com' }), actions(), nativeText('ru'));
    expect(link.map((item) => item.label)).toEqual(['Открыть ссылку в браузере', 'Копировать ссылку']);
  });

  it('shows nothing on a blank spot of the page', () => {
    const menu = { buildFromTemplate: vi.fn(() => ({ popup: vi.fn() })) };
    let listener: ((event: unknown, p: MenuParams) => void) | undefined;
    installContextMenu(
      { on: (_name: string, fn: typeof listener) => (listener = fn) } as never,
      menu as never,
      actions(),
    );
    listener?.({}, params({}));
    expect(menu.buildFromTemplate).not.toHaveBeenCalled();
    listener?.({}, params({ selectionText: 'x' }));
    expect(menu.buildFromTemplate).toHaveBeenCalledTimes(1);
  });
});
