import type { ReactNode } from 'react';
import { CloseButton } from '../../app/CloseButton';

/** What a composer list is given: the items waiting, and how to take one back out. */
export interface AttachedItems<T extends { readonly id: string }> {
  readonly items: readonly T[];
  readonly onRemove: (id: string) => void;
}

interface AttachedListProps<T extends { readonly id: string }> extends AttachedItems<T> {
  /** Names the list for screen readers. */
  readonly label: string;
  /** The list's classes, and each item's. */
  readonly className: string;
  readonly itemClassName: string;
  readonly itemTitle?: (item: T) => string;
  /** What an item shows before its remove button. */
  readonly children: (item: T) => ReactNode;
  /** The remove button: its class and its accessible name (it shows only ×). */
  readonly removeClassName: string;
  readonly removeLabel: (item: T) => string;
}

/** What waits in the composer for the next message (pictures, MCP picks): a list, each with a button that removes it. */
export function AttachedList<T extends { readonly id: string }>(props: AttachedListProps<T>) {
  if (props.items.length === 0) return null;
  return (
    <ul className={props.className} aria-label={props.label}>
      {props.items.map((item) => (
        <li key={item.id} className={props.itemClassName} title={props.itemTitle?.(item)}>
          {props.children(item)}
          <CloseButton
            look="small"
            className={props.removeClassName}
            label={props.removeLabel(item)}
            onClick={() => props.onRemove(item.id)}
          />
        </li>
      ))}
    </ul>
  );
}
