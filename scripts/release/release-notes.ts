import { err, ok } from '../../shared/result';
import type { Result } from '../../shared/result';

/**
 * Release notes come from CHANGELOG.md (Keep a Changelog: `## [1.2.0] - 2026-12-01` headings, newest
 * first). The release workflow publishes the section of the version being tagged as the release's
 * body, and refuses to publish a tag the changelog says nothing about.
 */

/** `v1.2.0` → `1.2.0`; anything else is not a release tag. */
export function versionOfTag(tag: string): Result<string> {
  const match = /^v(\d+\.\d+\.\d+(?:-[0-9A-Za-z.-]+)?)$/.exec(tag.trim());
  return match?.[1] === undefined
    ? err('invalid_arguments', `"${tag}" is not a release tag: expected v<major>.<minor>.<patch>, e.g. v1.2.0.`)
    : ok(match[1]);
}

/** The tag must name the version package.json gives the app (and electron-builder the installers). */
export function checkTagMatchesVersion(tag: string, packageVersion: string): Result<string> {
  const version = versionOfTag(tag);
  if (!version.ok) return version;
  return version.value === packageVersion
    ? version
    : err(
        'invalid_arguments',
        `The tag ${tag} says ${version.value}, but package.json says ${packageVersion}: bump the version and tag again.`,
      );
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** The body of the `## [version]` section (up to the next `## ` heading or the link definitions). */
export function releaseNotesFor(changelog: string, version: string): Result<string> {
  const lines = changelog.replace(/\r\n/g, '\n').split('\n');
  const heading = new RegExp(`^##\\s+\\[?v?${escapeRegExp(version)}\\]?(\\s|$)`);
  const start = lines.findIndex((line) => heading.test(line));
  if (start === -1) {
    return err(
      'not_found',
      `CHANGELOG.md has no section for ${version}: add "## [${version}] - <date>" with the notes.`,
    );
  }
  const rest = lines.slice(start + 1);
  const end = rest.findIndex((line) => /^##\s/.test(line) || /^\[[^\]]+\]:\s/.test(line));
  const notes = (end === -1 ? rest : rest.slice(0, end)).join('\n').trim();
  return notes === '' ? err('not_found', `The CHANGELOG.md section for ${version} is empty.`) : ok(`${notes}\n`);
}
