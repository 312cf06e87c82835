import { createHash } from 'node:crypto';
import { join } from 'node:path';
import type { WorkspaceSandbox } from '../../platform/disk/workspace-sandbox';
import type { IndexStatusListener } from './index-status';
import { WorkspaceIndex } from './workspace-index';
import type { IndexOptions } from './semantic-answer';

/** One index per open workspace: switching folders closes the previous one (it stays saved on disk). */
export class WorkspaceIndexes {
  private current: WorkspaceIndex | undefined;
  private readonly listeners = new Set<IndexStatusListener>();
  private readonly options: IndexOptions;

  constructor(
    private readonly dir: string,
    options: boolean | IndexOptions = true,
  ) {
    const given = typeof options === 'boolean' ? { watchChanges: options } : options;
    this.options = {
      ...given,
      onStatus: (status) => {
        given.onStatus?.(status);
        for (const listener of this.listeners) listener(status);
      },
    };
  }

  /** Progress of whichever index is open (the UI's status line); answers the unsubscribe. */
  onStatus(listener: IndexStatusListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  for(sandbox: WorkspaceSandbox): WorkspaceIndex {
    if (this.current?.root === sandbox.workspaceRoot) return this.current;
    void this.current?.close();
    const name = createHash('sha256').update(sandbox.workspaceRoot).digest('hex').slice(0, 16);
    this.current = new WorkspaceIndex(sandbox, join(this.dir, `${name}.json`), this.options);
    return this.current;
  }

  /** A tool changed this workspace path: the open index re-reads it on its next query. */
  noteChanged(workspaceRoot: string, relPath: string): void {
    if (this.current?.root === workspaceRoot) this.current.noteChanged(relPath);
  }

  async close(): Promise<void> {
    await this.current?.close();
    this.current = undefined;
  }
}
