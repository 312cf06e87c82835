import type { Readable, Writable } from 'node:stream';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { JSONRPCMessageSchema } from '@modelcontextprotocol/sdk/types.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';

/** The largest message a server may send (a tool result, a list): 16 MB, well above the result cap. */
export const MAX_MESSAGE_BYTES = 16 * 1024 * 1024;

export interface StdioPipes {
  readonly stdin: Writable;
  readonly stdout: Readable;
}

/**
 * The MCP stdio transport over a child Familiar already started (through platform/processes, in
 * its sandbox): the SDK's StdioClientTransport spawns its own child, with the user's rights, so it
 * is not used. Messages are newline-delimited JSON. A line that is not JSON-RPC is reported and
 * skipped, never fatal; a line over the size limit is dropped as it streams (never held whole), and
 * the request it answered gets an error at once instead of waiting for its timeout.
 */
export class StdioPipeTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;

  private chunks: Buffer[] = [];
  private held = 0;
  /** Inside an oversized line: bytes are dropped until its end. */
  private dropping = false;
  private closed = false;

  constructor(
    private readonly pipes: StdioPipes,
    private readonly maxMessageBytes = MAX_MESSAGE_BYTES,
  ) {}

  start(): Promise<void> {
    this.pipes.stdout.on('data', (chunk: Buffer) => this.receive(chunk));
    this.pipes.stdout.on('error', (error: Error) => this.onerror?.(error));
    this.pipes.stdout.once('close', () => this.finish());
    return Promise.resolve();
  }

  send(message: JSONRPCMessage): Promise<void> {
    if (this.closed) return Promise.reject(new Error('The server has exited.'));
    return new Promise((resolve, reject) => {
      this.pipes.stdin.write(`${JSON.stringify(message)}\n`, (error) => (error ? reject(error) : resolve()));
    });
  }

  close(): Promise<void> {
    this.pipes.stdin.end();
    this.finish();
    return Promise.resolve();
  }

  private finish(): void {
    if (this.closed) return;
    this.closed = true;
    this.onclose?.();
  }

  private receive(chunk: Buffer): void {
    let rest = chunk;
    for (;;) {
      const newline = rest.indexOf(0x0a);
      if (newline === -1) {
        this.hold(rest);
        return;
      }
      this.hold(rest.subarray(0, newline));
      if (this.dropping) this.dropped();
      else this.deliver(Buffer.concat(this.chunks).toString('utf8').replace(/\r$/, ''));
      this.chunks = [];
      this.held = 0;
      rest = rest.subarray(newline + 1);
    }
  }

  /** While dropping: the line's first bytes and its last ones, where a response's id sits. */
  private dropHead = '';
  private dropTail = Buffer.alloc(0);

  private hold(part: Buffer): void {
    if (part.length === 0) return;
    if (this.dropping) {
      this.dropTail = Buffer.concat([this.dropTail, part]).subarray(-256);
      return;
    }
    if (this.held + part.length <= this.maxMessageBytes) {
      this.chunks.push(part);
      this.held += part.length;
      return;
    }
    const all = Buffer.concat([...this.chunks, part]);
    this.dropHead = all.subarray(0, 256).toString('utf8');
    this.dropTail = all.subarray(-256);
    this.chunks = [];
    this.held = 0;
    this.dropping = true;
  }

  private dropped(): void {
    this.dropping = false;
    const limit = `${Math.round(this.maxMessageBytes / (1024 * 1024))} MB`;
    this.onerror?.(new Error(`The server sent a message over ${limit}; it was dropped.`));
    const idText =
      /"id"\s*:\s*(\d+|"(?:[^"\\]|\\.)*")\s*\}\s*$/.exec(this.dropTail.toString('utf8'))?.[1] ??
      /^\{\s*"jsonrpc"\s*:\s*"2\.0"\s*,\s*"id"\s*:\s*(\d+|"(?:[^"\\]|\\.)*")/.exec(this.dropHead)?.[1];
    this.dropHead = '';
    this.dropTail = Buffer.alloc(0);
    if (idText === undefined) return;
    this.onmessage?.({
      jsonrpc: '2.0',
      id: JSON.parse(idText) as string | number,
      error: { code: -32001, message: `The server's answer was over ${limit} and was dropped.` },
    });
  }

  private deliver(line: string): void {
    if (line.trim() === '') return;
    let message: JSONRPCMessage;
    try {
      message = JSONRPCMessageSchema.parse(JSON.parse(line));
    } catch {
      this.onerror?.(new Error(`The server wrote a line that is not JSON-RPC: ${line.slice(0, 200)}`));
      return;
    }
    this.onmessage?.(message);
  }
}
