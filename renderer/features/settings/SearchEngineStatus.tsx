import { useStoreFields } from '../../app/use-store-fields';
import { useT } from '../../i18n/i18n';
import { useConfinementStore } from './confinement-store';

/**
 * Which engine search_in_code uses (app.confinement's `search`): the ripgrep shipped with Familiar,
 * ripgrep on PATH, or the JavaScript engine and why. Shown under ConfinementStatus, which loads it.
 */
export function SearchEngineStatus() {
  const t = useT();
  const { confinement } = useStoreFields(['confinement'], useConfinementStore);
  if (confinement === null) return null;
  const { search } = confinement;
  const text =
    search.engine === 'ripgrep'
      ? t(`search.engine.${search.source}`, { path: search.path })
      : t(`search.engine.${search.reason}`);
  return (
    <p className="muted" data-testid="search-engine">
      {text}
    </p>
  );
}
