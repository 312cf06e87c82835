import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { chooseDefaultWorkspace, legacyDefaultWorkspace } from './default-workspace';

let root: string;
let home: string;
let visible: string;

beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'familiar-default-workspace-'));
  home = join(root, 'app-data');
  visible = join(root, 'user-home', 'Familiar');
  await mkdir(home, { recursive: true });
});
afterEach(() => rm(root, { recursive: true, force: true }));

describe('the default workspace', () => {
  it('is the visible folder on a first run', async () => {
    expect(await chooseDefaultWorkspace(home, visible)).toBe(visible);
  });

  it('stays where an earlier version put it, persona files and all', async () => {
    await mkdir(legacyDefaultWorkspace(home));
    expect(await chooseDefaultWorkspace(home, visible)).toBe(join(home, 'workspace'));
  });

  it('is an existing visible folder of that name too (the user may have made it)', async () => {
    await mkdir(visible, { recursive: true });
    expect(await chooseDefaultWorkspace(home, visible)).toBe(visible);
  });
});
