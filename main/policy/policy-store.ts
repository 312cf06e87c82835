import { readFile, rename } from 'node:fs/promises';
import type { z } from 'zod';
import { defaultPolicy, policySchema } from '../../shared/policy';
import type { Policy } from '../../shared/policy';
import { err, ok } from '../../shared/result';
import type { Result } from '../../shared/result';
import type { Logger } from '../core/logger';
import { writeFileAtomic } from '../storage/atomic-file';

export interface PolicyStore {
  get(): Policy;
  /** Why the policy file on disk was not used at start-up, if it was not. */
  loadError(): string | null;
  /** Validates, persists and applies; an invalid table is refused and the current one kept. */
  update(candidate: unknown): Promise<Result<Policy>>;
  reset(): Promise<Policy>;
  subscribe(listener: (policy: Policy) => void): () => void;
}

const describe = (error: z.ZodError): string =>
  error.issues
    .slice(0, 5)
    .map((issue) => `${issue.path.join('.') || 'policy'}: ${issue.message}`)
    .join('; ');

/** policy.json in the Familiar home: data, not code, so the user can read and change it. */
export async function openPolicyStore(file: string, logger: Logger): Promise<PolicyStore> {
  let current = defaultPolicy();
  let startError: string | null = null;
  const listeners = new Set<(policy: Policy) => void>();

  const text = await readFile(file, 'utf8').catch(() => null);
  if (text !== null) {
    let parsed: ReturnType<typeof policySchema.safeParse> | null = null;
    try {
      parsed = policySchema.safeParse(JSON.parse(text));
    } catch {
      startError = 'policy.json is not valid JSON';
    }
    if (parsed?.success === true) current = parsed.data;
    else if (parsed !== null && !parsed.success)
      startError = `policy.json is not a valid policy: ${describe(parsed.error)}`;
    if (startError !== null) logger.warn(`${startError}; the default policy applies until it is fixed`);
  }

  const save = async (policy: Policy) => {
    // Keep the user's broken file instead of overwriting it silently.
    if (startError !== null) await rename(file, `${file}.invalid-${Date.now()}`).catch(() => undefined);
    await writeFileAtomic(file, `${JSON.stringify(policy, null, 2)}\n`);
    current = policy;
    startError = null;
    for (const listener of listeners) listener(policy);
  };

  return {
    get: () => current,
    loadError: () => startError,
    async update(candidate) {
      const parsed = policySchema.safeParse(candidate);
      if (!parsed.success) {
        return err('invalid_policy', `The policy was not changed: ${describe(parsed.error)}`);
      }
      await save(parsed.data);
      return ok(parsed.data);
    },
    async reset() {
      await save(defaultPolicy());
      return current;
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}
