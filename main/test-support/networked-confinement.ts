import { confinementMode } from '../platform/processes/confinement';

/**
 * For tests of a confined command's network: whether they can run here (bubblewrap works and socat
 * is installed) and, when not, the visible reason to put in the suite's name.
 */
export function networkedConfinement(): { readonly networked: boolean; readonly skipped: string } {
  const mode = confinementMode();
  const networked = mode.confined && mode.socat !== undefined;
  const reason = mode.confined ? 'socat is not installed' : `${mode.reason} ${mode.fix}`;
  return { networked, skipped: networked ? '' : ` (skipped: ${reason})` };
}
