import type { ProcessRulesSummary } from '../../../shared/ipc/app';
import { useI18nStore, useT } from '../../i18n/i18n';
import { useConfinementStore } from './confinement-store';

/** `~/…` for a path inside the home, as people write them. */
const inHome = (path: string, home: string): string => {
  if (path === home) return '~';
  for (const separator of ['/', '\\']) {
    const prefix = home.endsWith(separator) ? home : `${home}${separator}`;
    if (path.startsWith(prefix)) return `~/${path.slice(prefix.length)}`;
  }
  return path;
};

/** One kind of process in a line: what it writes, keeps read-only, reads, cannot see, and reaches. */
function useRulesLine(): (rules: ProcessRulesSummary) => string {
  const t = useT();
  const locale = useI18nStore((state) => state.locale);
  const list = (items: readonly string[]) =>
    new Intl.ListFormat(locale, { type: 'conjunction' }).format(
      items.map((item) => (item === '.' ? t('confinement.theWorkspace') : item)),
    );
  return (rules) =>
    [
      rules.writes.length === 0
        ? t('confinement.writesNothing')
        : t('confinement.writes', { paths: list(rules.writes) }),
      ...(rules.readOnly.length === 0 ? [] : [t('confinement.readOnly', { paths: list(rules.readOnly) })]),
      rules.reads.length === 0
        ? t('confinement.readsSystem')
        : t(rules.toolchains ? 'confinement.reads' : 'confinement.readsOwnToolchain', { paths: list(rules.reads) }),
      ...(rules.hidden.length === 0 ? [] : [t('confinement.hiddenNames', { paths: list(rules.hidden) })]),
      t('confinement.noHome'),
      rules.network ? t('confinement.network') : t('confinement.noNetwork'),
    ].join(t('confinement.separator'));
}

/**
 * What each kind of process Familiar starts may touch, what stays hidden from all of them, and the
 * toolchains kept readable inside the home: app.confinement as the rules say it now.
 */
export function ConfinementRules() {
  const t = useT();
  const locale = useI18nStore((state) => state.locale);
  const confinement = useConfinementStore((state) => state.confinement);
  const line = useRulesLine();
  if (confinement === null) return null;
  const home = (path: string) => inHome(path, confinement.userHome);
  return (
    <div className="confinement-rules">
      <h4>{t(confinement.mode.confined ? 'confinement.kinds' : 'confinement.kindsUnconfined')}</h4>
      <dl className="facts">
        {confinement.processes.map((rules) => (
          <div key={rules.kind} className="facts-row" data-testid={`confinement-${rules.kind}`}>
            <dt>{t(`confinement.kind.${rules.kind}`)}</dt>
            <dd>{line(rules)}</dd>
          </div>
        ))}
      </dl>
      <p data-testid="confinement-hidden">
        {t(confinement.mode.confined ? 'confinement.hiddenTrees' : 'confinement.hiddenTreesUnconfined', {
          paths: new Intl.ListFormat(locale, { type: 'conjunction' }).format(
            confinement.hiddenTrees.map((path) =>
              path === confinement.userHome ? t('confinement.yourHome') : home(path),
            ),
          ),
        })}
      </p>
      <p id="confinement-toolchains">{t('confinement.toolchains')}</p>
      <ul className="confinement-paths" aria-labelledby="confinement-toolchains">
        {confinement.toolchains.map((path) => (
          <li key={path}>
            <code>{home(path)}</code>
          </li>
        ))}
      </ul>
    </div>
  );
}

/** Entries of the user's list the rules do not honour, and why. */
export function ConfinementLeftOut() {
  const t = useT();
  const leftOut = useConfinementStore((state) => state.confinement?.leftOut);
  if (leftOut === undefined || leftOut.length === 0) return null;
  return (
    <p className="form-warning" role="note">
      {t('confinement.leftOut', { entries: leftOut.join(', ') })}
    </p>
  );
}
