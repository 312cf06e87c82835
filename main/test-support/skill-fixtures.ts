import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';

/** A skill folder for a test: SKILL.md from front matter text and a body, plus any other files. */
export async function writeSkill(
  skillsDir: string,
  folder: string,
  skill: { readonly frontMatter: string; readonly body: string; readonly files?: Record<string, string | Buffer> },
): Promise<string> {
  const dir = join(skillsDir, folder);
  await mkdir(dir, { recursive: true });
  await writeFile(join(dir, 'SKILL.md'), `---\n${skill.frontMatter.trim()}\n---\n\n${skill.body}`);
  for (const [path, content] of Object.entries(skill.files ?? {})) {
    await mkdir(dirname(join(dir, path)), { recursive: true });
    await writeFile(join(dir, path), content);
  }
  return dir;
}

/** The simplest valid skill: its name, a one-line description and a body. */
export const simpleSkill = (name: string, description: string, body: string) => ({
  frontMatter: `name: ${name}\ndescription: ${description}`,
  body,
});

/**
 * Skills shaped like the public anthropics/skills examples (written here, not copied): a quoted
 * description with colons inside, a `license` naming a bundled file, scripts/ and reference files
 * beside SKILL.md; and a `|-` block description longer than the specification's 1024 characters,
 * as their claude-api skill has.
 */
export const anthropicStyleSkills = {
  pdf: {
    frontMatter: [
      'name: pdf',
      'description: "Use this skill whenever the user works with PDF files: extracting text or tables, merging, splitting, filling forms. If the user mentions a .pdf file, use this skill."',
      'license: Proprietary. LICENSE.txt has complete terms',
    ].join('\n'),
    body: '# PDF processing\n\nFor forms read forms.md. Run `python scripts/check_fields.py file.pdf` to list fields.\n',
    files: {
      'LICENSE.txt': 'Terms.\n',
      'forms.md': '# Forms\n\nFill fields one by one.\n',
      'reference.md': '# Reference\n\nAdvanced features.\n',
      'scripts/check_fields.py': 'import sys\nprint("fields of", sys.argv[1])\n',
    },
  },
  'api-guide': {
    frontMatter: [
      'name: api-guide',
      'description: |-',
      `  Reference for an HTTP API — ids, pricing, parameters, streaming.`,
      `  TRIGGER — whenever the prompt names the API in any form (${'the service, '.repeat(80)}and so on).`,
      '  SKIP only when another provider is being worked on.',
      'license: Complete terms in LICENSE.txt',
    ].join('\n'),
    body: '# Building with the API\n\nRead python/README.md for Python.\n',
    files: { 'LICENSE.txt': 'Terms.\n', 'python/README.md': '# Python\n\npip install it.\n' },
  },
} as const;
