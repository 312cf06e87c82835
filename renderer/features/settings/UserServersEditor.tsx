import { useState } from 'react';
import { FormError } from '../../app/FormError';
import { userServerSchema } from '../../../shared/settings';
import type { UserServer } from '../../../shared/settings';
import { familiar } from '../../ipc/familiar';
import { useT } from '../../i18n/i18n';
import { LabelledField } from './LabelledField';
import { settingsActions } from './settings-store';

/** One row as typed: words separated by spaces (arguments) or spaces and commas (patterns). */
interface Draft {
  readonly key: number;
  readonly id: string;
  readonly command: string;
  readonly args: string;
  readonly patterns: string;
  readonly languageId: string;
}

const words = (text: string, separators: RegExp) => text.split(separators).filter((word) => word !== '');

const draftOf = (server: UserServer, key: number): Draft => ({
  key,
  id: server.id,
  command: server.command,
  args: server.args.join(' '),
  patterns: server.patterns.join(' '),
  languageId: server.languageId,
});

/** The rows as settings, or the first row the schema refuses (1-based) with why. */
function parseDrafts(drafts: readonly Draft[]): { servers: UserServer[] } | { row: number; message: string } {
  const servers: UserServer[] = [];
  for (const [index, draft] of drafts.entries()) {
    const parsed = userServerSchema.safeParse({
      id: draft.id,
      command: draft.command,
      args: words(draft.args, /\s+/),
      patterns: words(draft.patterns, /[\s,]+/),
      languageId: draft.languageId,
    });
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      return { row: index + 1, message: `${issue?.path.join('.') ?? ''}: ${issue?.message ?? ''}` };
    }
    servers.push(parsed.data);
  }
  if (new Set(servers.map((server) => server.id)).size !== servers.length) return { row: 0, message: 'id' };
  return { servers };
}

const fields = ['id', 'command', 'args', 'patterns', 'languageId'] as const;

/**
 * Language servers the user adds (settings: code.servers): command, arguments, file patterns and
 * language id per row; saved together with Save, checked by the same schema the core applies.
 */
export function UserServersEditor({ servers }: { readonly servers: readonly UserServer[] }) {
  const t = useT();
  const [drafts, setDrafts] = useState<Draft[]>(() => servers.map(draftOf));
  const [next, setNext] = useState(servers.length);
  const [problem, setProblem] = useState<string | null>(null);
  const change = (key: number, field: (typeof fields)[number], value: string) =>
    setDrafts((current) => current.map((draft) => (draft.key === key ? { ...draft, [field]: value } : draft)));
  const save = () => {
    const parsed = parseDrafts(drafts);
    if (!('servers' in parsed)) {
      setProblem(
        parsed.row === 0
          ? t('settings.serversDuplicate')
          : t('settings.serversInvalid', { row: parsed.row, message: parsed.message }),
      );
      return;
    }
    setProblem(null);
    void settingsActions.update(familiar, { code: { servers: parsed.servers } });
  };
  const labels: Record<(typeof fields)[number], string> = {
    id: t('settings.serverId'),
    command: t('settings.serverCommand'),
    args: t('settings.serverArgs'),
    patterns: t('settings.serverPatterns'),
    languageId: t('settings.serverLanguageId'),
  };
  const placeholders: Record<(typeof fields)[number], string> = {
    id: 'lua',
    command: 'lua-language-server',
    args: '--stdio',
    patterns: '.lua *.rockspec',
    languageId: 'lua',
  };
  return (
    <div className="field-column" role="group" aria-labelledby="settings-servers-title">
      <h4 id="settings-servers-title">{t('settings.servers')}</h4>
      <p className="muted">{t('settings.serversExplain')}</p>
      {drafts.map((draft, index) => (
        <fieldset key={draft.key} className="user-server">
          <legend>{t('settings.serverRow', { n: index + 1 })}</legend>
          {fields.map((field) => (
            <LabelledField key={field} id={`server-${draft.key}-${field}`} label={labels[field]} layout="row">
              <input
                id={`server-${draft.key}-${field}`}
                className="input"
                type="text"
                spellCheck={false}
                autoComplete="off"
                placeholder={placeholders[field]}
                value={draft[field]}
                onChange={(event) => change(draft.key, field, event.target.value)}
              />
            </LabelledField>
          ))}
          <button
            type="button"
            className="button button-small"
            onClick={() => setDrafts((current) => current.filter((other) => other.key !== draft.key))}
          >
            {t('settings.serverRemove', { n: index + 1 })}
          </button>
        </fieldset>
      ))}
      <div className="field-row">
        <button
          type="button"
          className="button button-small"
          onClick={() => {
            setDrafts((current) => [
              ...current,
              { key: next, id: '', command: '', args: '', patterns: '', languageId: '' },
            ]);
            setNext(next + 1);
          }}
        >
          {t('settings.serverAdd')}
        </button>
        <button type="button" className="button button-small button-primary" onClick={save}>
          {t('settings.serversSave')}
        </button>
      </div>
      <FormError inline message={problem} />
    </div>
  );
}
