import { useState } from 'react';
import { mcpServerConfigSchema } from '../../../shared/mcp-servers';
import type { McpServerConfig } from '../../../shared/mcp-servers';
import { familiar } from '../../ipc/familiar';
import { useT } from '../../i18n/i18n';

interface AddMcpServerFormProps {
  readonly add: (server: McpServerConfig) => void;
  readonly onError: (message: string | null) => void;
}

/** A one-line text field with its label above it. */
function LineField({
  label,
  value,
  onChange,
}: {
  readonly label: string;
  readonly value: string;
  readonly onChange: (value: string) => void;
}) {
  return (
    <label className="field-column">
      {label}
      <input className="input" value={value} onChange={(event) => onChange(event.target.value)} />
    </label>
  );
}

/** A new server typed in (a command or a URL), or another host's JSON pasted. */
export function AddMcpServerForm({ add, onError }: AddMcpServerFormProps) {
  const t = useT();
  const [id, setId] = useState('');
  const [transport, setTransport] = useState<'stdio' | 'http'>('stdio');
  const [command, setCommand] = useState('');
  const [args, setArgs] = useState('');
  const [url, setUrl] = useState('');
  // KEY=value (environment) or Header: value (headers), one per line: saved to the secret store.
  const [values, setValues] = useState('');
  const [pasted, setPasted] = useState('');
  const [imported, setImported] = useState<string | null>(null);
  const submit = () => {
    const pairs = Object.fromEntries(
      values
        .split('\n')
        .map((line) => line.trim())
        .filter((line) => line !== '')
        .map((line) => {
          const at = line.indexOf(transport === 'stdio' ? '=' : ':');
          return at < 0 ? [line, ''] : [line.slice(0, at).trim(), line.slice(at + 1).trim()];
        }),
    );
    const candidate =
      transport === 'stdio'
        ? { id, transport, command, args: args.split('\n').filter((line) => line.trim() !== ''), env: pairs }
        : { id, transport, url, headers: pairs };
    const parsed = mcpServerConfigSchema.safeParse(candidate);
    if (!parsed.success) {
      onError(parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`).join('; '));
      return;
    }
    onError(null);
    add(parsed.data);
    setId('');
    setCommand('');
    setArgs('');
    setUrl('');
    setValues('');
  };
  const importJson = async () => {
    const answer = await familiar.invoke('mcpServers.import', { text: pasted });
    if (!answer.ok) {
      onError(answer.error.message);
      return;
    }
    onError(null);
    setPasted('');
    setImported(
      t('mcp.imported', {
        added: answer.value.added.map((server) => server.id).join(', ') || '—',
        skipped: answer.value.skipped.map((entry) => `${entry.name} (${entry.reason})`).join('; ') || '—',
      }),
    );
  };
  return (
    <>
      <div className="field-column" role="group" aria-labelledby="mcp-add-title">
        <h4 id="mcp-add-title">{t('mcp.add')}</h4>
        <LineField label={t('mcp.id')} value={id} onChange={setId} />
        <label className="field-column">
          {t('mcp.transport')}
          <select
            className="select"
            value={transport}
            onChange={(event) => setTransport(event.target.value === 'http' ? 'http' : 'stdio')}
          >
            <option value="stdio">{t('mcp.transport.stdio')}</option>
            <option value="http">{t('mcp.transport.http')}</option>
          </select>
        </label>
        {transport === 'stdio' ? (
          <>
            <LineField label={t('mcp.command')} value={command} onChange={setCommand} />
            <label className="field-column">
              {t('mcp.args')}
              <textarea className="input" rows={3} value={args} onChange={(event) => setArgs(event.target.value)} />
            </label>
          </>
        ) : (
          <LineField label={t('mcp.url')} value={url} onChange={setUrl} />
        )}
        <label className="field-column">
          {transport === 'stdio' ? t('mcp.env') : t('mcp.headers')}
          <textarea
            className="input"
            rows={2}
            spellCheck={false}
            autoComplete="off"
            value={values}
            onChange={(event) => setValues(event.target.value)}
          />
        </label>
        <div className="field-row">
          <button type="button" className="button" onClick={submit}>
            {t('mcp.addButton')}
          </button>
        </div>
      </div>
      <div className="field-column">
        <label className="field-column">
          {t('mcp.import')}
          <textarea className="input" rows={4} value={pasted} onChange={(event) => setPasted(event.target.value)} />
        </label>
        <div className="field-row">
          <button type="button" className="button" disabled={pasted.trim() === ''} onClick={() => void importJson()}>
            {t('mcp.importButton')}
          </button>
        </div>
        {imported !== null && <p role="status">{imported}</p>}
      </div>
    </>
  );
}
