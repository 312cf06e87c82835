// `jiti scripts/release/notes.ts <tag> [output file]`: checks the tag against package.json and
// prints (or writes) the CHANGELOG.md section for it. The release workflow uses it as the body of
// the draft release; it fails before anything is built when the two disagree or the notes are missing.
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { checkTagMatchesVersion, releaseNotesFor } from './release-notes';

const root = join(import.meta.dirname, '..', '..');
const [tag, output] = process.argv.slice(2);
if (tag === undefined) {
  console.error('usage: notes.ts <tag, e.g. v1.2.0> [output file]');
  process.exit(2);
}
const { version } = JSON.parse(await readFile(join(root, 'package.json'), 'utf8')) as { version: string };
const checked = checkTagMatchesVersion(tag, version);
const notes = checked.ok ? releaseNotesFor(await readFile(join(root, 'CHANGELOG.md'), 'utf8'), checked.value) : checked;
if (!notes.ok) {
  console.error(notes.error.message);
  process.exit(1);
}
if (output === undefined) process.stdout.write(notes.value);
else await writeFile(output, notes.value);
