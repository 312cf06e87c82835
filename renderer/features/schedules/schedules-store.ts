import { create } from 'zustand';
import type { FamiliarApi } from '../../../shared/ipc/contract';
import type { ScheduleNotification } from '../../../shared/ipc/schedules';
import { createMirrorStore } from '../../app/mirror-store';

/** `state`: what schedules.state answered last (tasks with their next runs, the history, the badge). */
const mirror = createMirrorStore('state', 'schedules.state');
export const useSchedulesStore = mirror.useStore;

/** The notifications shown as toasts until dismissed (the newest few). */
export const useScheduleNoticesStore = create<{ readonly notices: readonly ScheduleNotification[] }>()(() => ({
  notices: [],
}));

const SHOWN_NOTICES = 3;

export const schedulesActions = {
  load: mirror.actions.load,

  /** Loads, then follows runs, tasks and notifications; returns the unsubscribe. */
  connect: (api: FamiliarApi): (() => void) => {
    void mirror.actions.load(api);
    const stops = [
      api.on('schedules.changed', () => void mirror.actions.load(api)),
      api.on('schedules.notification', (notification) =>
        useScheduleNoticesStore.setState((state) => ({
          notices: [...state.notices, notification].slice(-SHOWN_NOTICES),
        })),
      ),
    ];
    return () => stops.forEach((stop) => stop());
  },

  dismiss: (id: string): void =>
    useScheduleNoticesStore.setState((state) => ({ notices: state.notices.filter((notice) => notice.id !== id) })),

  /** The user looked: the badge clears. */
  markSeen: async (api: FamiliarApi): Promise<void> => {
    await api.invoke('schedules.markSeen', {});
  },
};
