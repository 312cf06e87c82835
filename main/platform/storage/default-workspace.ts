import { stat } from 'node:fs/promises';
import { join } from 'node:path';

/** Where 0.1.0 kept the default workspace (and the persona files): inside the app's data folder. */
export const legacyDefaultWorkspace = (home: string): string => join(home, 'workspace');

const exists = (path: string): Promise<boolean> =>
  stat(path).then(
    () => true,
    () => false,
  );

/**
 * The default workspace the user can find in their file manager (the desktop app asks for ~/Familiar)
 * instead of one hidden in the app data folder. An install that already has the old one keeps it:
 * SOUL.md, USER.md and MEMORY.md live there, and moving a user's files behind their back (across
 * disks, over open handles) is worse than leaving them where they are. New installs never make the
 * old folder, so the choice is stable from one start to the next.
 */
export async function chooseDefaultWorkspace(home: string, visible: string): Promise<string> {
  const legacy = legacyDefaultWorkspace(home);
  return (await exists(legacy)) ? legacy : visible;
}
