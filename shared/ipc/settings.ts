import { settingsPatchSchema, settingsSchema } from '../settings';
import { z } from 'zod';
import { defineCall } from './define';

export const settingsCalls = {
  'settings.get': defineCall(z.object({}).strict(), settingsSchema),
  /** Sections are merged as given; answers the settings as saved. */
  'settings.update': defineCall(settingsPatchSchema, settingsSchema),
};

export const settingsEvents = {
  'settings.changed': settingsSchema,
};
