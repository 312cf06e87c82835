// `jiti scripts/release/write-checksums.ts <folder>`: writes SHA256SUMS.txt beside the release
// assets in <folder> (the release workflow's last job, over every runner's installers).
import { resolve } from 'node:path';
import { checksumFileName, writeChecksums } from './checksums';

const [folder] = process.argv.slice(2);
if (folder === undefined) {
  console.error('usage: write-checksums.ts <folder with the release assets>');
  process.exit(2);
}
const names = await writeChecksums(resolve(folder));
console.log(`${checksumFileName}: ${names.length} files\n${names.map((name) => `  ${name}`).join('\n')}`);
