/**
 * For tests (not shipped): the checks `Familiar --smoke-test` must report, in this order. Both of its
 * front doors run the same checks, so both pin this one list: the desktop adapter
 * (main/front-doors/electron/smoke-test.test.ts) and browser mode (e2e/smoke-test-mode.spec.ts).
 */
export const expectedSmokeChecks: readonly string[] = [
  'provider',
  'renderer',
  'approval',
  'tool',
  'reply',
  'bridge',
  'node-isolation',
  'csp',
  'model',
  'ripgrep',
  'file',
  'page-errors',
  'confinement',
];
