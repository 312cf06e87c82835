import { describe, expect, it } from 'vitest';
import { resolveStaticPath } from './static-files';

describe('resolveStaticPath', () => {
  const root = '/srv/renderer';

  it('maps asset paths inside the root', () => {
    expect(resolveStaticPath(root, '/assets/index.js')).toBe('/srv/renderer/assets/index.js');
    expect(resolveStaticPath(root, '/a%20b.css')).toBe('/srv/renderer/a b.css');
  });

  it('refuses anything that would leave the root', () => {
    for (const path of ['/../secret', '/assets/../../x', '/%2e%2e/x', '/..%2fx', '/a%00b', '/%E0%A4%A', '/']) {
      expect(resolveStaticPath(root, path)).toBeNull();
    }
  });
});
