import picomatch from 'picomatch';
import type { Policy, PolicyDecision, PolicyOperation, PolicyRule } from '../../../shared/policy';

export interface PolicyVerdict {
  readonly decision: PolicyDecision;
  /** True when the path is refused only because memory is switched off. */
  readonly memoryOff: boolean;
  readonly rule: PolicyRule | undefined;
}

/**
 * Workspace-relative paths as the policy sees them: forward slashes, no leading './', no trailing
 * '/', Unicode NFC. The sandbox refuses '..' and absolute paths before anything is decided.
 */
export function normalizePolicyPath(path: string): string {
  let normalized = path
    .normalize('NFC')
    .replaceAll('\\', '/')
    .replace(/\/{2,}/g, '/');
  while (normalized.startsWith('./')) normalized = normalized.slice(2);
  normalized = normalized.replace(/(\/\.)+$/, '').replace(/\/+$/, '');
  return normalized === '' || normalized === '.' ? '.' : normalized;
}

const matchers = new WeakMap<PolicyRule, (path: string) => boolean>();

// Case-insensitive on purpose: on macOS and Windows 'memory.md' *is* MEMORY.md, and a rule that
// over-matches only asks or refuses more, never less.
function matcherFor(rule: PolicyRule): (path: string) => boolean {
  let matcher = matchers.get(rule);
  if (matcher === undefined) {
    // '**' is the catch-all: it covers the workspace root '.' too, which picomatch would not match.
    if (rule.pattern === '**') return () => true;
    const glob = picomatch(rule.pattern, { dot: true, nocase: true });
    // A pattern naming a folder (memory/**) also covers the folder itself.
    matcher = (path) => glob(path) || (rule.pattern.endsWith('/**') && glob(`${path}/x`));
    matchers.set(rule, matcher);
  }
  return matcher;
}

/**
 * Compiles each rule's glob now, not in the first call it decides (2.4 ms of a fresh server's first
 * call went to compiling the default policy's globs): the policy store does, as a policy loads.
 */
export function compilePolicy(policy: Policy): void {
  for (const rule of policy.rules) matcherFor(rule);
}

/** First matching row that decides the operation wins; the catch-all always decides. */
export function decide(
  policy: Policy,
  operation: PolicyOperation,
  path: string,
  memoryEnabled: boolean,
): PolicyVerdict {
  const target = normalizePolicyPath(path);
  for (const rule of policy.rules) {
    if (!matcherFor(rule)(target)) continue;
    if (rule.memory && !memoryEnabled) return { decision: 'deny', memoryOff: true, rule };
    const decision = rule.decisions[operation];
    if (decision !== undefined) return { decision, memoryOff: false, rule };
  }
  // Unreachable with a valid policy (the schema demands a full catch-all); refuse rather than guess.
  return { decision: 'deny', memoryOff: false, rule: undefined };
}

/** True when a path falls under a memory-gated row: what the assistant must not see while memory is off. */
export function isMemoryPath(policy: Policy, path: string): boolean {
  const target = normalizePolicyPath(path);
  return policy.rules.some((rule) => rule.memory && matcherFor(rule)(target));
}
