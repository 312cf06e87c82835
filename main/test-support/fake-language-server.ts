import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll } from 'vitest';
import type { LspService } from '../domain/lsp/lsp-service';

/**
 * A tiny stand-in language server for the LSP tests: a Node script speaking real JSON-RPC over
 * stdio (vscode-jsonrpc, as a real server does), so the client's life cycle is tested for real
 * and fast. The script is written once per test file; every service a test keeps is disposed after it.
 */
export interface FakeLanguageServer {
  /** The temp folder holding the script; the tests also use it as the workspace root. */
  dir(): string;
  /** The script: run it as `node <script>`. */
  script(): string;
  /** Disposes the service (and so stops its servers) after the test. */
  keep<T extends LspService>(service: T): T;
}

/**
 * `handlers` is the server's own part, written against the connection `c`: at least its answer to
 * `initialize`. Shutdown and exit are answered as the protocol says.
 */
export function useFakeLanguageServer(name: string, handlers: string): FakeLanguageServer {
  let dir = '';
  let script = '';
  const services: LspService[] = [];
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), `familiar-${name}-`));
    script = join(dir, `${name}.cjs`);
    const jsonrpc = createRequire(import.meta.url).resolve('vscode-jsonrpc/node');
    await writeFile(
      script,
      `const rpc = require(${JSON.stringify(jsonrpc)});
const c = rpc.createMessageConnection(new rpc.StreamMessageReader(process.stdin), new rpc.StreamMessageWriter(process.stdout));
c.onRequest('shutdown', () => null);
c.onNotification('exit', () => process.exit(0));
${handlers}
c.listen();
`,
    );
  });
  afterEach(async () => {
    await Promise.all(services.splice(0).map((service) => service.dispose()));
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));
  return {
    dir: () => dir,
    script: () => script,
    keep: (service) => {
      services.push(service);
      return service;
    },
  };
}
