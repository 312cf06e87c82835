import { useT } from '../../i18n/i18n';
import { providersActions } from './provider-actions';
import { useProvidersStore } from './providers-store';

/** The model the chat talks to, shown in the conversation header; a click opens the provider form. */
export function ModelButton() {
  const t = useT();
  const model = useProvidersStore((state) => state.status?.provider?.model);
  if (model === undefined) return null;
  return (
    <button
      type="button"
      className="button button-small model-button"
      aria-label={t('provider.changeModel', { model })}
      onClick={providersActions.openDialog}
    >
      {model}
    </button>
  );
}
