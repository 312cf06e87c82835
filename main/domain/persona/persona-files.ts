import { DAILY_NOTES_DIR, personaFileNames } from '../policy/persona-rules';
import type { PersonaFileName } from '../policy/persona-rules';
import type { PersonaFolder } from './persona-folder';

const starters: Record<PersonaFileName, string> = {
  'SOUL.md': `# Soul

You are Familiar, a calm and capable companion who works on the user's files with them.

- Be direct and warm. Say what you did and what you did not do.
- Read before you change anything; make the smallest change that does the job.
- When unsure what the user wants, ask one short question instead of guessing.
- Never pretend a tool succeeded: report errors as they are and suggest the next step.
`,
  'USER.md': `# About the user

(Familiar keeps what it learns about you here while memory is on: name, preferences, projects.
You can edit this file yourself at any time.)
`,
  'MEMORY.md': `# Long-term memory

(Facts and decisions worth keeping across conversations. Familiar adds to this while memory is on.)
`,
  // Only a heading and a comment: the heartbeat skips such a file until the user writes a checklist.
  'HEARTBEAT.md': `# Heartbeat

<!--
When the heartbeat is on (Settings → Heartbeat & tasks), Familiar reads this file as its prompt every
interval, in a conversation of its own. Write below what it should check, as a list. When nothing
needs your attention it answers HEARTBEAT_OK and leaves no trace; anything else becomes a notification.
A file with only headings and comments is skipped.
-->
`,
};

/**
 * First run: create the persona files with starter text. Existing files are never touched (each is
 * created exclusively, so a race with the user cannot clobber their text).
 */
export async function ensurePersonaFiles(folder: PersonaFolder): Promise<void> {
  const made = await folder.makeDirectory(DAILY_NOTES_DIR);
  if (!made.ok) throw new Error(`could not create ${DAILY_NOTES_DIR}/: ${made.error.message}`);
  for (const name of personaFileNames) {
    const created = await folder.create(name, starters[name]);
    if (!created.ok) throw new Error(`could not create ${name}: ${created.error.message}`);
  }
}

/**
 * A persona file's text, or '' when the user deleted it (the prompt then simply lacks that part)
 * or it cannot be read safely (a symlink out of the folder, a hard link): such text never reaches
 * the prompt.
 */
export async function readPersonaFile(folder: PersonaFolder, name: PersonaFileName): Promise<string> {
  const read = await folder.read(name);
  return read.ok ? read.value : '';
}
