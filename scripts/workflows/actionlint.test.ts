import { describe, expect, it } from 'vitest';
import { projectRoot } from '../packaging/builder-config';
import { lintWorkflow, lintWorkflows } from './actionlint';

const workflow = (job: string) => `name: probe
on: push
jobs:
${job}`;

describe('workflow lint (actionlint)', () => {
  it("passes this repository's workflows", async () => {
    const { files, problems } = await lintWorkflows(projectRoot);
    expect(files).toEqual(['.github/workflows/ci.yml', '.github/workflows/release.yml']);
    expect(problems).toEqual([]);
  });

  it('catches what breaks a workflow: a missing job, an unknown context, untrusted input in a script', async () => {
    const problems = await lintWorkflow(
      'probe.yml',
      workflow(`  build:
    runs-on: ubuntu-latest
    needs: [test]
    steps:
      - run: echo "\${{ github.event.pull_request.title }}"
      - if: \${{ secret.TOKEN != '' }}
        run: echo signed
`),
    );
    expect(problems.map((problem) => problem.kind).sort()).toEqual(['expression', 'expression', 'job-needs']);
    expect(problems.find((problem) => problem.kind === 'job-needs')).toMatchObject({ file: 'probe.yml', line: 4 });
  });

  it('catches broken YAML', async () => {
    const problems = await lintWorkflow('probe.yml', workflow('  build:\n    runs-on: [ubuntu-latest\n'));
    expect(problems.map((problem) => problem.kind)).toContain('syntax-check');
  });

  it('knows the Intel macOS runner that is newer than its label list, and nothing more', async () => {
    const job = (label: string) => workflow(`  build:\n    runs-on: ${label}\n    steps:\n      - run: echo\n`);
    expect(await lintWorkflow('probe.yml', job('macos-15-intel'))).toEqual([]);
    expect((await lintWorkflow('probe.yml', job('macos-15-intl'))).map((problem) => problem.kind)).toEqual([
      'runner-label',
    ]);
  });
});
