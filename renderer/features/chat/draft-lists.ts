/**
 * What the composer keeps per draft until it is sent (pictures, MCP picks), keyed by draft: remove
 * one, take them all for sending (they come back if the send is refused), move them to another draft.
 */
export function draftListActions<T extends { readonly id: string }>(
  pendingFor: (key: string) => readonly T[],
  setFor: (key: string, items: readonly T[]) => void,
) {
  return {
    remove(key: string, id: string): void {
      setFor(
        key,
        pendingFor(key).filter((item) => item.id !== id),
      );
    },
    /** Takes the items for sending: the draft has none again. */
    take(key: string): readonly T[] {
      const items = pendingFor(key);
      setFor(key, []);
      return items;
    },
    /** Puts taken items back in front of any added since (the send was refused). */
    restore(key: string, items: readonly T[]): void {
      setFor(key, [...items, ...pendingFor(key)]);
    },
    move(from: string, to: string): void {
      const items = pendingFor(from);
      setFor(from, []);
      if (items.length > 0) setFor(to, items);
    },
  };
}
