import { describe, expect, it } from 'vitest';
import { createDenyList } from './deny-list';
import { matching } from '../../test-support/tool-kit';

describe('the deny-list', () => {
  const list = createDenyList();

  it.each(['.env', '.env.local', 'a/b/.env.production', 'server.pem', 'certs/tls.key', 'id_rsa', '.ssh/id_rsa.pub'])(
    'refuses %s for reads and writes',
    (path) => {
      expect(list.check(path, 'read')).toMatchObject({ ok: false, error: { code: 'permission_denied' } });
      expect(list.check(path, 'write')).toMatchObject({ ok: false, error: { code: 'permission_denied' } });
      expect(list.deniesRead(path)).toBe(true);
    },
  );

  it('refuses writes inside .git at any depth but allows reads', () => {
    for (const path of ['.git', '.git/config', 'vendor/x/.git/HEAD']) {
      expect(list.check(path, 'read').ok).toBe(true);
      expect(list.deniesRead(path)).toBe(false);
      expect(list.check(path, 'write')).toMatchObject({ ok: false, error: { message: matching(/never changed/) } });
    }
  });

  it.each(['environment.ts', 'src/env.ts', 'keyboard.ts', 'a.pem.txt', '.gitignore', 'my.git/x'])(
    'lets %s through',
    (path) => {
      expect(list.check(path, 'write').ok).toBe(true);
      expect(list.deniesRead(path)).toBe(false);
    },
  );

  it('takes configured rules, folders and paths included', () => {
    const custom = createDenyList([
      { pattern: 'secrets/', scope: 'all' },
      { pattern: 'config/prod/*.json', scope: 'writes' },
    ]);
    expect(custom.deniesRead('app/secrets/token.txt')).toBe(true);
    expect(custom.check('config/prod/db.json', 'read').ok).toBe(true);
    expect(custom.check('config/prod/db.json', 'write').ok).toBe(false);
    expect(custom.check('.env', 'read').ok).toBe(true);
  });
});
