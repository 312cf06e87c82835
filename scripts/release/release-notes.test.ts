import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkTagMatchesVersion, releaseNotesFor, versionOfTag } from './release-notes';

const changelog = `# Changelog

All notable changes to Familiar are documented here.

## [Unreleased]

- Something not released yet.

## [1.2.0] - 2026-12-01

### Added

- Dark mode.
- A [link](https://example.com) in a note.

## [1.1.10] - 2026-11-02

- An older fix.

## [1.1.1] - 2026-10-01

- The oldest note.

[1.2.0]: https://github.com/familiar-app/familiar/releases/tag/v1.2.0
`;

describe('release notes from the changelog', () => {
  it('takes exactly the section of the version, without the next one or the link definitions', () => {
    expect(releaseNotesFor(changelog, '1.2.0')).toEqual({
      ok: true,
      value: '### Added\n\n- Dark mode.\n- A [link](https://example.com) in a note.\n',
    });
    expect(releaseNotesFor(changelog, '1.1.1')).toEqual({ ok: true, value: '- The oldest note.\n' });
  });

  it('never mistakes one version for another that starts the same', () => {
    expect(releaseNotesFor(changelog, '1.1.1')).toMatchObject({ value: '- The oldest note.\n' });
    expect(releaseNotesFor(changelog, '1.1')).toMatchObject({ ok: false, error: { code: 'not_found' } });
  });

  it('reads Windows line endings and headings without brackets', () => {
    expect(releaseNotesFor('## 2.0.0\r\n\r\n- Big.\r\n\r\n## 1.0.0\r\n- Old.\r\n', '2.0.0')).toEqual({
      ok: true,
      value: '- Big.\n',
    });
  });

  it('refuses a version the changelog does not mention, or mentions with nothing to say', () => {
    expect(releaseNotesFor(changelog, '9.9.9')).toMatchObject({ ok: false, error: { code: 'not_found' } });
    expect(releaseNotesFor('## [3.0.0]\n\n## [2.0.0]\n- x\n', '3.0.0')).toMatchObject({
      ok: false,
      error: { message: 'The CHANGELOG.md section for 3.0.0 is empty.' },
    });
  });

  it('has notes for the version package.json gives, in the real CHANGELOG.md', async () => {
    const root = join(import.meta.dirname, '..', '..');
    const { version } = JSON.parse(await readFile(join(root, 'package.json'), 'utf8')) as { version: string };
    const notes = releaseNotesFor(await readFile(join(root, 'CHANGELOG.md'), 'utf8'), version);
    expect(notes.ok, notes.ok ? '' : notes.error.message).toBe(true);
  });
});

describe('release tags', () => {
  it('are v<semver>', () => {
    expect(versionOfTag('v1.2.0')).toEqual({ ok: true, value: '1.2.0' });
    expect(versionOfTag('v1.2.0-beta.1')).toEqual({ ok: true, value: '1.2.0-beta.1' });
    for (const tag of ['1.2.0', 'v1.2', 'release-1.2.0', 'v1.2.0/evil']) {
      expect(versionOfTag(tag).ok, tag).toBe(false);
    }
  });

  it('must name the version in package.json', () => {
    expect(checkTagMatchesVersion('v0.1.0', '0.1.0')).toEqual({ ok: true, value: '0.1.0' });
    expect(checkTagMatchesVersion('v0.2.0', '0.1.0')).toMatchObject({
      ok: false,
      error: { message: expect.stringContaining('package.json says 0.1.0') as string },
    });
  });
});
