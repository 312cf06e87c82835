import { familiar } from '../../ipc/familiar';
import { createProvidersActions } from './providers-store';

/** The provider actions bound to the page's one API. */
export const providersActions = createProvidersActions(familiar);
