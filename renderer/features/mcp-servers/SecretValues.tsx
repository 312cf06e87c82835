import { useState } from 'react';
import { MCP_SECRET_KEPT } from '../../../shared/mcp-servers';
import { useT } from '../../i18n/i18n';

interface SecretValuesProps {
  /** Names with MCP_SECRET_KEPT in place of each saved value. */
  readonly values: Readonly<Record<string, string>>;
  readonly save: (next: Record<string, string>) => void;
}

/** A server's environment or header values: masked, each replaceable (the new value goes to the secret store). */
export function SecretValues({ values, save }: SecretValuesProps) {
  const t = useT();
  const [typed, setTyped] = useState<Record<string, string>>({});
  const names = Object.keys(values);
  if (names.length === 0) return null;
  return (
    <div className="field-column" role="group" aria-label={t('mcp.secretValues')}>
      <span className="muted">{t('mcp.secretValues')}</span>
      {names.map((name) => (
        <div key={name} className="field-row">
          <code>{name}</code>
          <span className="muted">{values[name] === MCP_SECRET_KEPT ? t('mcp.secretMasked') : ''}</span>
          <input
            className="input"
            type="password"
            autoComplete="off"
            aria-label={t('mcp.replaceValue', { name })}
            value={typed[name] ?? ''}
            onChange={(event) => setTyped({ ...typed, [name]: event.target.value })}
          />
          <button
            type="button"
            className="button button-small"
            disabled={(typed[name] ?? '') === ''}
            onClick={() => {
              save({ ...values, [name]: typed[name] ?? '' });
              setTyped({ ...typed, [name]: '' });
            }}
          >
            {t('mcp.replaceShort')}
          </button>
        </div>
      ))}
    </div>
  );
}
