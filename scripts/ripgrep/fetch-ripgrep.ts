// `jiti scripts/ripgrep/fetch-ripgrep.ts <linux|mac|win> <x64|arm64>...`: downloads the pinned
// ripgrep release for each architecture, refuses it unless its sha256 is the pinned one
// (ripgrep-release.ts), and leaves rg (rg.exe) and its licences in vendor/ripgrep/<os>-<arch>/, where
// electron-builder.yml's extraResources takes them into the package. The release workflow runs it
// before packing; a development checkout does without (search_in_code then uses rg on PATH).
import { projectRoot } from '../packaging/builder-config';
import { parseTarget, releaseUrl, vendorFolder } from './ripgrep-release';
import type { BuilderArch, BuilderOs } from './ripgrep-release';
import { vendorRipgrep } from './vendor-ripgrep';

const [os, ...arches] = process.argv.slice(2);
if (os === undefined || arches.length === 0) {
  console.error('usage: fetch-ripgrep.ts <linux|mac|win> <x64|arm64>...');
  process.exit(2);
}

for (const arch of arches) {
  const found = parseTarget(os, arch);
  if (typeof found === 'string') {
    console.error(found);
    process.exit(2);
  }
  const target = vendorFolder(projectRoot, os as BuilderOs, arch as BuilderArch);
  const outcome = await vendorRipgrep(found, releaseUrl(found), target);
  if (!outcome.ok) {
    console.error(outcome.message);
    process.exit(1);
  }
  console.log(`ripgrep ${found.name} (sha256 ${found.sha256}) -> ${target}`);
}
