import { describe, expect, it } from 'vitest';
import { defaultPolicy, policyOperations, policySchema } from '../../../shared/policy';
import type { PolicyDecision, PolicyOperation } from '../../../shared/policy';
import { decide, isMemoryPath, normalizePolicyPath } from './decide';

const policy = defaultPolicy();
type Row = Record<PolicyOperation, PolicyDecision>;

// The design's defaults, written out independently of shared/policy.ts so a change there shows here.
// USER.md and MEMORY.md are both long-term memory; a notes file and the workspace root are both
// ordinary workspace places: each pair is meant to be treated alike.
const memoryFile = {
  memory: true,
  memoryOn: { read: 'allow', write: 'allow', edit: 'allow', delete: 'deny', move: 'deny', run: 'ask' },
} as const;
const ordinaryPlace = {
  memory: false,
  memoryOn: { read: 'allow', write: 'ask', edit: 'ask', delete: 'ask', move: 'ask', run: 'ask' },
} as const;
const expected: Record<string, { memoryOn: Row; memory: boolean }> = {
  'SOUL.md': {
    memory: false,
    memoryOn: { read: 'allow', write: 'ask', edit: 'ask', delete: 'deny', move: 'deny', run: 'ask' },
  },
  'USER.md': memoryFile,
  'MEMORY.md': memoryFile,
  'memory/2026-11-23.md': {
    memory: true,
    memoryOn: { read: 'allow', write: 'allow', edit: 'allow', delete: 'ask', move: 'ask', run: 'ask' },
  },
  'notes/todo.md': ordinaryPlace,
  '.': ordinaryPlace,
};

describe('default policy matrix', () => {
  for (const [path, row] of Object.entries(expected)) {
    for (const operation of policyOperations) {
      it(`${path} ${operation}: memory on → ${row.memoryOn[operation]}; memory off → ${row.memory ? 'deny (memory)' : row.memoryOn[operation]}`, () => {
        expect(decide(policy, operation, path, true)).toMatchObject({
          decision: row.memoryOn[operation],
          memoryOff: false,
        });
        const off = decide(policy, operation, path, false);
        if (row.memory) expect(off).toMatchObject({ decision: 'deny', memoryOff: true });
        else expect(off).toMatchObject({ decision: row.memoryOn[operation], memoryOff: false });
      });
    }
  }

  it('the default policy is valid by its own schema', () => {
    expect(policySchema.safeParse(policy).success).toBe(true);
  });
});

describe('paths the model may write differently', () => {
  it('normalizes ./, duplicate and trailing slashes, backslashes', () => {
    expect(normalizePolicyPath('./SOUL.md')).toBe('SOUL.md');
    expect(normalizePolicyPath('memory//a.md')).toBe('memory/a.md');
    expect(normalizePolicyPath('memory/')).toBe('memory');
    expect(normalizePolicyPath('memory\\a.md')).toBe('memory/a.md');
    expect(normalizePolicyPath('')).toBe('.');
    expect(normalizePolicyPath('./')).toBe('.');
  });

  it('cannot dodge a rule by case, ./ or the folder itself', () => {
    for (const path of ['./SOUL.md', 'soul.md', 'Soul.MD']) {
      expect(decide(policy, 'write', path, true).decision, path).toBe('ask');
    }
    for (const path of ['memory.md', './MEMORY.md', 'memory', 'memory/', 'MEMORY/x.md']) {
      expect(decide(policy, 'read', path, false), path).toMatchObject({ decision: 'deny', memoryOff: true });
    }
  });

  it('does not treat look-alike names as persona files', () => {
    expect(decide(policy, 'write', 'docs/SOUL.md', true).decision).toBe('ask');
    expect(decide(policy, 'read', 'docs/MEMORY.md', false)).toMatchObject({ decision: 'allow', memoryOff: false });
    expect(decide(policy, 'read', 'memoryless.md', false).decision).toBe('allow');
  });

  it('knows which paths are memory paths', () => {
    expect(['USER.md', 'MEMORY.md', 'memory', 'memory/a.md'].every((path) => isMemoryPath(policy, path))).toBe(true);
    expect(['SOUL.md', 'notes.md', 'docs/MEMORY.md'].some((path) => isMemoryPath(policy, path))).toBe(false);
  });
});

describe('policy validation', () => {
  it('refuses a table without a complete catch-all', () => {
    const noCatchAll = { version: 1, rules: [{ pattern: 'a.md', decisions: { read: 'allow' } }] };
    expect(policySchema.safeParse(noCatchAll).success).toBe(false);
    const partial = { version: 1, rules: [{ pattern: '**', decisions: { read: 'allow' } }] };
    expect(policySchema.safeParse(partial).success).toBe(false);
    const unknownDecision = { version: 1, rules: [{ pattern: '**', decisions: { read: 'maybe' } }] };
    expect(policySchema.safeParse(unknownDecision).success).toBe(false);
  });
});
