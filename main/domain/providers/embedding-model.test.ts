import { createServer } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { listenOnLoopback } from '../../test-support/loopback-server';
import { providerAt } from '../../test-support/provider-at';
import type { ListeningServer } from '../../test-support/loopback-server';
import { createEmbedder } from './embedding-model';

const servers: ListeningServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

/** An embeddings server that takes every request and never answers it. */
async function silentServer(): Promise<ListeningServer> {
  const server = await listenOnLoopback(createServer(() => undefined));
  servers.push(server);
  return server;
}

describe('embedding requests', () => {
  it.each(['openai-compatible', 'ollama'] as const)(
    'give up on a %s server that never answers, so an embedding pass can end',
    async (kind) => {
      const { origin } = await silentServer();
      const made = createEmbedder(providerAt(kind, origin), 'toy-embed', 'key', globalThis.fetch, 300);
      if (!made.ok) throw new Error(made.error.message);
      const started = Date.now();
      await expect(made.value.embed(['one passage'])).rejects.toThrow();
      expect(Date.now() - started).toBeLessThan(5_000);
      // The caller's own signal still stops it first.
      const stop = new AbortController();
      const asked = made.value.embed(['one passage'], stop.signal);
      stop.abort();
      await expect(asked).rejects.toThrow();
    },
  );
});
