import { describe, expect, it } from 'vitest';
import { anthropicStyleSkills } from '../../../e2e/fixtures/skill-folders';
import { parseSkillFile } from './skill-file';

const file = (frontMatter: string, body = '# Body\n') => `---\n${frontMatter}\n---\n\n${body}`;

describe('SKILL.md front matter (agentskills.io specification)', () => {
  it('reads the required fields, the optional ones, and the body after the front matter', () => {
    const parsed = parseSkillFile(
      file(
        [
          'name: pdf-processing',
          'description: Extract text and tables from PDF files.',
          'license: Apache-2.0',
          'compatibility: Needs python3 and network access',
          'metadata:',
          '  author: example-org',
          '  version: 1.0',
          'allowed-tools: Bash(git:*) Read',
        ].join('\n'),
        '# PDF\n\nSteps.\n',
      ),
      'pdf-processing',
    );
    expect(parsed.errors).toEqual([]);
    expect(parsed.warnings).toEqual([]);
    expect(parsed.meta).toEqual({
      name: 'pdf-processing',
      description: 'Extract text and tables from PDF files.',
      license: 'Apache-2.0',
      compatibility: 'Needs python3 and network access',
      metadata: { author: 'example-org', version: '1' },
      allowedTools: 'Bash(git:*) Read',
    });
    expect(parsed.body).toBe('# PDF\n\nSteps.\n');
  });

  it.each([
    ['PDF-Processing', /lowercase/],
    ['-pdf', /lowercase/],
    ['pdf--processing', /lowercase/],
    ['pdf_processing', /lowercase/],
    ['a'.repeat(65), /65 characters.*limit is 64/],
  ])('refuses the name %s', (name, message) => {
    const parsed = parseSkillFile(file(`name: ${name}\ndescription: Something.`), name);
    expect(parsed.meta).toBeUndefined();
    expect(parsed.errors.join(' ')).toMatch(message);
  });

  it('refuses a name that is not its folder, a missing description, bad YAML and no front matter at all', () => {
    expect(parseSkillFile(file('name: other\ndescription: x'), 'mine').errors).toEqual([
      "'name' is 'other' but the folder is 'mine'; they must match.",
    ]);
    expect(parseSkillFile(file('name: mine'), 'mine').errors).toEqual(["'description' is missing."]);
    expect(parseSkillFile(file('name: mine\ndescription: ""'), 'mine').errors).toEqual([
      "'description' must be non-empty text.",
    ]);
    expect(parseSkillFile(file('name: mine\ndescription: [unclosed'), 'mine').errors[0]).toMatch(/^YAML: /);
    expect(parseSkillFile(file('name: mine\nname: mine\ndescription: x'), 'mine').errors[0]).toMatch(/^YAML: /);
    expect(parseSkillFile('# Just markdown\n', 'mine').errors[0]).toMatch(/does not start with YAML front matter/);
    expect(
      parseSkillFile(file(`name: mine\ndescription: x\ncompatibility: ${'c'.repeat(501)}`), 'mine').errors,
    ).toEqual(["'compatibility' is 501 characters long; the limit is 500."]);
    expect(parseSkillFile(file('name: mine\ndescription: x\nmetadata: [a, b]'), 'mine').errors).toEqual([
      "'metadata' must be a map of names to text.",
    ]);
  });

  it('loads a description over 1024 characters cut to the limit, with a warning (public skills have one)', () => {
    const skill = anthropicStyleSkills['api-guide'];
    const parsed = parseSkillFile(file(skill.frontMatter, skill.body), 'api-guide');
    expect(parsed.errors).toEqual([]);
    expect(parsed.warnings[0]).toMatch(/characters long; the limit is 1024/);
    expect(parsed.meta?.description).toHaveLength(1024);
    expect(parsed.meta?.description).toMatch(/^Reference for an HTTP API — ids/);
    expect(parsed.meta?.license).toBe('Complete terms in LICENSE.txt');
  });

  it('reads a quoted description with colons inside, and reports fields the specification lacks without refusing', () => {
    const pdf = parseSkillFile(file(anthropicStyleSkills.pdf.frontMatter), 'pdf');
    expect(pdf.errors).toEqual([]);
    expect(pdf.meta?.description).toMatch(/^Use this skill whenever the user works with PDF files: extracting/);
    expect(pdf.meta?.license).toBe('Proprietary. LICENSE.txt has complete terms');
    const extra = parseSkillFile(file('name: mine\ndescription: x\nversion: 2\nauthor: me'), 'mine');
    expect(extra.errors).toEqual([]);
    expect(extra.warnings).toEqual(['Fields the specification does not define are ignored: version, author.']);
  });

  it('takes CRLF line ends and a byte-order mark', () => {
    const parsed = parseSkillFile('\uFEFF---\r\nname: mine\r\ndescription: Windows.\r\n---\r\nBody\r\n', 'mine');
    expect(parsed.errors).toEqual([]);
    expect(parsed.meta?.description).toBe('Windows.');
    expect(parsed.body).toBe('Body\r\n');
  });
});
