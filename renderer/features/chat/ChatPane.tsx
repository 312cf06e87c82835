import { useT } from '../../i18n/i18n';

export function ChatPane() {
  const t = useT();
  return (
    <main className="chat-pane" aria-labelledby="chat-title">
      <h2 id="chat-title" className="visually-hidden">
        {t('chat.title')}
      </h2>
      <p className="chat-empty">{t('chat.empty')}</p>
    </main>
  );
}
