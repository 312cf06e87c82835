// `jiti scripts/release/package-app.ts <linux|mac|win>`: the release workflow's build step. Decides
// signing from the secrets in the environment (signing-plan.ts), builds the app with that fact baked
// in, and packs this platform's installers into dist/ with electron-builder (never publishing: the
// release job uploads only what passed the smoke test).
import { spawnSync } from 'node:child_process';
import { appendFileSync } from 'node:fs';
import { join } from 'node:path';
import { Platform, build } from 'electron-builder';
import { loadBuilderConfig, projectRoot } from '../packaging/builder-config';
import { signingPlan } from './signing-plan';

const platforms = { linux: Platform.LINUX, mac: Platform.MAC, win: Platform.WINDOWS } as const;
const platform = process.argv[2];
if (platform !== 'linux' && platform !== 'mac' && platform !== 'win') {
  console.error('usage: package-app.ts <linux|mac|win>');
  process.exit(2);
}

const config = await loadBuilderConfig();
const plan = signingPlan(platform, process.env, {
  mac: config.mac?.artifactName ?? '',
  nsis: config.nsis?.artifactName ?? '',
  portable: config.portable?.artifactName ?? '',
});
if (!plan.ok) {
  console.error(`Cannot package: ${plan.error.message}`);
  process.exit(1);
}
console.log(plan.value.summary);
const output = process.env['GITHUB_OUTPUT'];
if (output !== undefined && output !== '') {
  appendFileSync(output, `signed=${plan.value.signed}\nnotarized=${plan.value.notarized}\n`);
}

const vite = spawnSync(
  process.execPath,
  [join(projectRoot, 'node_modules', 'electron-vite', 'bin', 'electron-vite.js'), 'build'],
  { cwd: projectRoot, stdio: 'inherit', env: plan.value.env },
);
if (vite.status !== 0) process.exit(vite.status ?? 1);

// electron-builder reads the certificates and Apple credentials from process.env itself.
for (const name of Object.keys(process.env)) {
  if (!(name in plan.value.env)) delete process.env[name];
}
Object.assign(process.env, plan.value.env);
// Architectures come from electron-builder.yml (both Mac CPUs from one runner, so latest-mac.yml
// lists both); targets without one are built for this runner's CPU.
const files = await build({
  projectDir: projectRoot,
  targets: platforms[platform].createTarget(),
  config: plan.value.config,
  publish: 'never',
});
console.log(files.map((file) => `  ${file}`).join('\n'));
