import { useEffect, useState } from 'react';
import { HiddenLabel } from '../../app/HiddenLabel';
import { useT } from '../../i18n/i18n';
import { conversationsActions } from './conversations-actions';

/** Searches titles as the user types (debounced); Esc clears. */
export function ConversationSearchField() {
  const t = useT();
  const [text, setText] = useState('');
  useEffect(() => {
    const timer = setTimeout(() => void conversationsActions.search(text), 150);
    return () => clearTimeout(timer);
  }, [text]);
  return (
    <div className="conversation-search">
      <HiddenLabel htmlFor="conversation-search">{t('conversations.search')}</HiddenLabel>
      <input
        id="conversation-search"
        className="input"
        type="search"
        value={text}
        placeholder={t('conversations.search')}
        onChange={(event) => setText(event.target.value)}
        onKeyDown={(event) => {
          if (event.key === 'Escape' && text !== '') {
            event.preventDefault();
            setText('');
          }
        }}
      />
    </div>
  );
}
