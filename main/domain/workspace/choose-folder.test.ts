import { describe, expect, it, vi } from 'vitest';
import { ok } from '../../../shared/result';
import { createChooseFolderHandler } from './choose-folder';

const ctx = { transport: 'electron', clientId: '1' } as const;

describe('workspace.chooseFolder', () => {
  it('opens the folder the dialog returned through the same open() as a typed path', async () => {
    const open = vi.fn((path: string) => Promise.resolve(ok({ path: `/real${path}` })));
    const handler = createChooseFolderHandler(open, () => Promise.resolve('/notes'))['workspace.chooseFolder'];
    expect(await handler({}, ctx)).toEqual(ok({ path: '/real/notes' }));
    expect(open).toHaveBeenCalledWith('/notes');
  });

  it('opens nothing when the user cancelled', async () => {
    const open = vi.fn();
    const handler = createChooseFolderHandler(open, () => Promise.resolve(null))['workspace.chooseFolder'];
    expect(await handler({}, ctx)).toEqual(ok({ path: null }));
    expect(open).not.toHaveBeenCalled();
  });

  it('tells browser mode to ask for a path', async () => {
    const handler = createChooseFolderHandler(vi.fn(), undefined)['workspace.chooseFolder'];
    expect(await handler({}, ctx)).toMatchObject({ ok: false, error: { code: 'not_found' } });
  });
});
