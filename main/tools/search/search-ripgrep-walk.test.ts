import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { confinementMode } from '../../platform/processes/confinement';
import { ripgrepOnPath } from '../../platform/processes/ripgrep-locate';
import { ripgrepPatternArgs } from '../../platform/search-engines/ripgrep-pattern';
import { useToolKits } from '../../test-support/use-tool-kits';
import { compileQuery } from './search-query';
import { ripgrepWalkedFiles } from './search-ripgrep-walk';

const toolKit = useToolKits();
const rg = ripgrepOnPath();

describe.skipIf(rg === undefined || !confinementMode().confined)('ripgrepWalkedFiles', () => {
  it("adds up the candidates' sizes with the persona files' (a literal over a few small files stays in this thread)", async () => {
    const kit = await toolKit({});
    await mkdir(join(kit.workspace, 'src'), { recursive: true });
    await writeFile(join(kit.workspace, 'src', 'a.ts'), 'const needle = 1;\n'); // 18 bytes
    await writeFile(join(kit.workspace, 'src', 'b.ts'), 'nothing here\n');
    await writeFile(join(kit.personaDir, 'SOUL.md'), 'a soul of 22 bytes...\n');
    await writeFile(join(kit.personaDir, 'USER.md'), '9 bytes.\n');
    const spec = compileQuery('needle', { isRegex: false, caseSensitive: false, contextLines: 0, maxLineChars: 200 });
    if (!spec.ok) throw new Error(spec.error.message);
    const start = await kit.env.sandbox.resolve('.', 'read');
    if (!start.ok) throw new Error(start.error.message);
    const walked = await ripgrepWalkedFiles(
      kit.env,
      rg!,
      ripgrepPatternArgs(spec.value)!,
      start.value,
      false,
      () => true,
      new AbortController().signal,
    );
    expect(walked?.files.map((file) => file.relPath).sort()).toEqual(['SOUL.md', 'USER.md', 'src/a.ts']);
    expect(walked?.bytes).toBe(18 + 22 + 9);
  });
});
