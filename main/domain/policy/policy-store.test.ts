import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { defaultPolicy } from '../../../shared/policy';
import { createStderrLogger } from '../../platform/logging/logger';
import { setAsideCopies } from '../../test-support/set-aside';
import { useTempDirs } from '../../test-support/temp-dir';
import { openPolicyStore } from './policy-store';

const tempDir = useTempDirs();
const quiet = createStderrLogger('test', () => undefined);

const strict = () => {
  const policy = defaultPolicy();
  policy.rules.unshift({ pattern: 'secrets/**', decisions: { read: 'deny' }, memory: false });
  return policy;
};

describe('policy store', () => {
  it('uses the defaults until a policy is saved, then persists it', async () => {
    const file = join(await tempDir(), 'policy.json');
    const store = await openPolicyStore(file, quiet);
    expect(store.get()).toEqual(defaultPolicy());
    expect(store.loadError()).toBeNull();
    const seen: number[] = [];
    store.subscribe((policy) => seen.push(policy.rules.length));
    expect(await store.update(strict())).toEqual({ ok: true, value: strict() });
    expect(seen).toEqual([6]);
    expect((await openPolicyStore(file, quiet)).get()).toEqual(strict());
  });

  it('refuses an invalid table with invalid_policy and keeps the previous one', async () => {
    const file = join(await tempDir(), 'policy.json');
    const store = await openPolicyStore(file, quiet);
    await store.update(strict());
    const result = await store.update({ version: 1, rules: [{ pattern: 'x', decisions: { read: 'sometimes' } }] });
    expect(result).toMatchObject({ ok: false, error: { code: 'invalid_policy' } });
    expect(store.get()).toEqual(strict());
    expect(JSON.parse(await readFile(file, 'utf8'))).toEqual(strict());
  });

  it('starts with the defaults when policy.json is broken, says why, and keeps the broken file on save', async () => {
    const file = join(await tempDir(), 'policy.json');
    await writeFile(file, '{"version": 1, "rules": []}');
    const store = await openPolicyStore(file, quiet);
    expect(store.get()).toEqual(defaultPolicy());
    expect(store.loadError()).toContain('not a valid policy');
    await store.reset();
    expect(store.loadError()).toBeNull();
    expect(await setAsideCopies(file)).toHaveLength(1);
  });
});
