import { useState } from 'react';
import type { ChangeEvent, KeyboardEvent } from 'react';

/**
 * The props of an input whose text is kept as typed and handed over on blur or Enter: settings
 * fields save then, not on every key.
 */
export function useCommittedText(initial: string, commit: (text: string) => void) {
  const [text, setText] = useState(initial);
  return {
    value: text,
    onChange: (event: ChangeEvent<HTMLInputElement>) => setText(event.target.value),
    onBlur: () => commit(text),
    onKeyDown: (event: KeyboardEvent<HTMLInputElement>) => {
      if (event.key === 'Enter') commit(text);
    },
  };
}
