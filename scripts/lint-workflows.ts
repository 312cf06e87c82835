// `npm run lint:workflows` (part of `npm run lint`): actionlint over .github/workflows/*.yml.
import { join } from 'node:path';
import { describeProblem, lintWorkflows } from './workflows/actionlint';

const root = join(import.meta.dirname, '..');
const { files, problems } = await lintWorkflows(root);
if (files.length === 0) {
  console.error('No workflows in .github/workflows: the check has nothing to check.');
  process.exit(1);
}
for (const problem of problems) console.error(describeProblem(problem));
if (problems.length > 0) {
  console.error(`actionlint: ${problems.length} problem(s) in ${files.length} workflow(s).`);
  process.exit(1);
}
console.log(`actionlint: ${files.join(', ')} passed.`);
