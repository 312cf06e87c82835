import type { z } from 'zod';
import { defaultPolicy, policySchema } from '../../../shared/policy';
import { compilePolicy } from './decide';
import type { Policy } from '../../../shared/policy';
import { err, ok } from '../../../shared/result';
import type { Result } from '../../../shared/result';
import type { Logger } from '../../platform/logging/logger';
import { keepInvalidAside } from '../../platform/storage/data-files';
import { readJsonFile, writeJsonFile } from '../../platform/storage/json-file';

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

  const stored = await readJsonFile(file, policySchema);
  if (stored.state === 'valid') current = stored.value;
  else if (stored.state === 'not-json') startError = 'policy.json is not valid JSON';
  else if (stored.state === 'invalid') startError = `policy.json is not a valid policy: ${describe(stored.error)}`;
  if (startError !== null) logger.warn(`${startError}; the default policy applies until it is fixed`);
  compilePolicy(current);

  const save = async (policy: Policy) => {
    // Keep the user's broken file instead of overwriting it silently.
    if (startError !== null) await keepInvalidAside(file);
    await writeJsonFile(file, policySchema, policy);
    current = policy;
    compilePolicy(current);
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
