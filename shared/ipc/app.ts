import { z } from 'zod';
import { defineCall } from './define';

export const appInfoSchema = z.object({
  name: z.string(),
  version: z.string(),
  /** 'desktop' when the page is hosted by Electron, 'browser' when served by `npm run serve`. */
  mode: z.enum(['desktop', 'browser']),
  platform: z.string(),
  workspacePath: z.string(),
  homePath: z.string(),
});
export type AppInfo = z.infer<typeof appInfoSchema>;

export const appCalls = {
  'app.info': defineCall(z.object({}).strict(), appInfoSchema),
};

/** What the desktop app's menu asks the page to do (the page owns these actions and their shortcuts). */
export const appCommands = [
  'new-conversation',
  'open-folder',
  'settings',
  'toggle-files',
  'toggle-conversations',
] as const;
export type AppCommand = (typeof appCommands)[number];

export const appEvents = {
  /** A menu item was chosen (desktop app only). */
  'app.command': z.object({ command: z.enum(appCommands) }),
  /** Main announces it is going away (window closing, server stopping) so the page can say so. */
  'app.shutdown': z.object({ reason: z.string() }),
};
