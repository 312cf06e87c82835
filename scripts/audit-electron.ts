// `npm run audit:electron`: Electronegativity over main/, preload/ and renderer/, failing on any
// HIGH or MEDIUM finding that electronegativity-allowlist.json does not justify.
import { join } from 'node:path';
import { describeVerdict, judgeFindings, loadAllowList } from './electron-audit/findings';
import { scanWithElectronegativity } from './electron-audit/scan';

const root = join(import.meta.dirname, '..');
const scan = await scanWithElectronegativity(root);
if (scan.checks === 0 || scan.scannedFiles === 0) {
  console.error(
    `Electronegativity ran ${scan.checks} checks over ${scan.scannedFiles} files: the gate cannot judge that.`,
  );
  process.exit(1);
}
const verdict = judgeFindings(
  scan.findings,
  await loadAllowList(join(root, 'electronegativity-allowlist.json')),
  scan.unparsed,
);
for (const line of describeVerdict(verdict, scan.scannedFiles)) console.log(line);
if (!verdict.passed) {
  console.error(
    'Electron security gate failed: fix the code, or justify a finding in electronegativity-allowlist.json.',
  );
  process.exit(1);
}
