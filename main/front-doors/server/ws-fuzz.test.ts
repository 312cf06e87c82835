import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { connect } from 'node:net';
import type { Socket } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { bundleChildScript, importOf } from '../../test-support/child-script';
import { useTempDirs } from '../../test-support/temp-dir';
import { MAX_FRAME_BYTES } from './browser-server';
import { seededRandom } from '../../test-support/seeded-random';

/**
 * Browser mode against broken WebSocket frames, sent byte by byte over raw TCP after a proper,
 * authenticated handshake: main/serve.ts runs as a real child process, so "the process survives"
 * is checked as a process, and after every case a well-behaved client must still get its answer.
 */

const tempDir = useTempDirs();
let server: ChildProcess | undefined;
let stderr = '';
let port = 0;
let token = '';
let client: WebSocket | undefined;

beforeAll(async () => {
  const script = await bundleChildScript(importOf(join(import.meta.dirname, '..', '..', 'serve.ts')));
  const home = await tempDir('familiar-ws-fuzz-');
  const child = spawn(process.execPath, [script, '--home', home, '--port', '0'], { stdio: ['ignore', 'pipe', 'pipe'] });
  server = child;
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const url = await new Promise<URL>((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const found = /browser mode: (\S+)/.exec(out);
      if (found?.[1] !== undefined) resolve(new URL(found[1]));
    });
    child.once('exit', (code) => reject(new Error(`serve exited (${code}): ${stderr}`)));
  });
  port = Number(url.port);
  token = url.searchParams.get('token') ?? '';
  client = await openClient();
}, 90_000);

afterAll(() => {
  client?.terminate();
  server?.kill('SIGKILL');
});

const origin = () => `http://127.0.0.1:${port}`;

function openClient(): Promise<WebSocket> {
  const socket = new WebSocket(`ws://127.0.0.1:${port}/bridge?token=${token}`, { headers: { origin: origin() } });
  return new Promise((resolve, reject) => {
    socket.once('open', () => resolve(socket));
    socket.once('error', reject);
  });
}

let callId = 0;
/** One contract call from a well-behaved client; resolves with its result frame. */
function ask(socket: WebSocket): Promise<unknown> {
  const id = (callId += 1);
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no answer to call ${id}; server stderr: ${stderr}`)), 10_000);
    const onMessage = (data: Buffer) => {
      const frame = JSON.parse(data.toString()) as { kind: string; id?: number; result?: unknown };
      if (frame.kind !== 'result' || frame.id !== id) return;
      clearTimeout(timer);
      socket.off('message', onMessage);
      resolve(frame.result);
    };
    socket.on('message', onMessage);
    socket.send(JSON.stringify({ kind: 'call', id, name: 'app.info', input: {} }));
  });
}

async function assertStillServing(label: string): Promise<void> {
  expect(server?.exitCode, `${label}: ${stderr}`).toBeNull();
  expect(server?.signalCode, label).toBeNull();
  if (client === undefined) throw new Error('no client');
  expect(await ask(client), label).toMatchObject({ ok: true, value: { mode: 'browser' } });
}

interface FrameSpec {
  readonly fin?: boolean;
  /** RSV1..3 as the three bits 0b100, 0b010, 0b001. */
  readonly rsv?: number;
  readonly opcode: number;
  readonly masked?: boolean;
  readonly payload: Buffer;
  /** The length the header claims, when it is not the payload's. */
  readonly declaredLength?: bigint;
}

/** RFC 6455 §5.2 framing, with every field under the test's control. */
function encodeFrame(spec: FrameSpec): Buffer {
  const masked = spec.masked ?? true;
  const length = spec.declaredLength ?? BigInt(spec.payload.length);
  const head = [((spec.fin ?? true) ? 0x80 : 0) | ((spec.rsv ?? 0) << 4) | spec.opcode];
  const maskBit = masked ? 0x80 : 0;
  let extended = Buffer.alloc(0);
  if (length < 126n) head.push(maskBit | Number(length));
  else if (length < 65536n) {
    head.push(maskBit | 126);
    extended = Buffer.alloc(2);
    extended.writeUInt16BE(Number(length));
  } else {
    head.push(maskBit | 127);
    extended = Buffer.alloc(8);
    extended.writeBigUInt64BE(length);
  }
  const key = masked ? randomBytes(4) : Buffer.alloc(0);
  const body = Buffer.from(spec.payload);
  if (masked) for (let i = 0; i < body.length; i += 1) body[i] = (body[i] as number) ^ (key[i % 4] as number);
  return Buffer.concat([Buffer.from(head), extended, key, body]);
}

const text = (value: string) => Buffer.from(value, 'utf8');
const closePayload = (code: number, reason: Buffer = Buffer.alloc(0)) => {
  const buffer = Buffer.alloc(2);
  buffer.writeUInt16BE(code);
  return Buffer.concat([buffer, reason]);
};
const validCall = () => text(JSON.stringify({ kind: 'call', id: 1, name: 'app.info', input: {} }));

interface RawOutcome {
  /** The code of the server's close frame, if it sent one. */
  readonly closeCode: number | undefined;
  readonly closed: boolean;
}

/** A raw TCP connection that completes the real handshake (token, origin, host) and then sends `bytes`. */
async function sendRaw(bytes: Buffer, options: { endAfter?: boolean; waitMs?: number } = {}): Promise<RawOutcome> {
  const socket: Socket = connect(port, '127.0.0.1');
  socket.on('error', () => undefined);
  let received = Buffer.alloc(0);
  let upgraded = false;
  let closed = false;
  let answeredClose = false;
  const opened = new Promise<void>((resolve, reject) => {
    socket.on('data', (chunk: Buffer) => {
      received = Buffer.concat([received, chunk]);
      if (upgraded) {
        // As a polite client does: answer the server's close frame so it can end the connection.
        const code = serverCloseCode(received);
        if (code !== undefined && !answeredClose) {
          answeredClose = true;
          socket.write(encodeFrame({ opcode: 0x8, payload: closePayload(code) }));
        }
        return;
      }
      const end = received.indexOf('\r\n\r\n');
      if (end === -1) return;
      const head = received.subarray(0, end).toString();
      if (!head.startsWith('HTTP/1.1 101')) reject(new Error(`handshake refused: ${head}`));
      upgraded = true;
      received = received.subarray(end + 4);
      resolve();
    });
    socket.once('close', () => {
      if (!upgraded) reject(new Error(`connection closed before the handshake; server stderr: ${stderr}`));
    });
  });
  const ended = new Promise<void>((resolve) =>
    socket.once('close', () => {
      closed = true;
      resolve();
    }),
  );
  socket.write(
    [
      `GET /bridge?token=${token} HTTP/1.1`,
      `Host: 127.0.0.1:${port}`,
      `Origin: ${origin()}`,
      'Upgrade: websocket',
      'Connection: Upgrade',
      `Sec-WebSocket-Key: ${randomBytes(16).toString('base64')}`,
      'Sec-WebSocket-Version: 13',
      '',
      '',
    ].join('\r\n'),
  );
  await opened;
  socket.write(bytes);
  if (options.endAfter === true) socket.end();
  await Promise.race([ended, new Promise((resolve) => setTimeout(resolve, options.waitMs ?? 2000))]);
  socket.destroy();
  return { closeCode: serverCloseCode(received), closed };
}

/** Walks the server's (unmasked) frames for a close frame and returns its status code. */
function serverCloseCode(bytes: Buffer): number | undefined {
  let at = 0;
  while (at + 2 <= bytes.length) {
    const opcode = (bytes[at] as number) & 0x0f;
    let length = (bytes[at + 1] as number) & 0x7f;
    let offset = at + 2;
    if (length === 126) {
      length = bytes.readUInt16BE(offset);
      offset += 2;
    } else if (length === 127) {
      length = Number(bytes.readBigUInt64BE(offset));
      offset += 8;
    }
    if (opcode === 0x8) return length >= 2 ? bytes.readUInt16BE(offset) : undefined;
    at = offset + length;
  }
  return undefined;
}

describe('browser mode under malformed WebSocket frames', () => {
  it('closes each bad socket with the right code and keeps serving the others', async () => {
    const cases: [string, Buffer, number][] = [
      ['reserved opcode 0x3', encodeFrame({ opcode: 0x3, payload: validCall() }), 1002],
      ['reserved control opcode 0xB', encodeFrame({ opcode: 0xb, payload: Buffer.alloc(0) }), 1002],
      ['RSV1 without an extension', encodeFrame({ opcode: 0x1, rsv: 0b100, payload: validCall() }), 1002],
      ['RSV2 and RSV3', encodeFrame({ opcode: 0x1, rsv: 0b011, payload: validCall() }), 1002],
      ['unmasked client frame', encodeFrame({ opcode: 0x1, masked: false, payload: validCall() }), 1002],
      ['continuation with nothing to continue', encodeFrame({ opcode: 0x0, payload: validCall() }), 1002],
      ['fragmented ping', encodeFrame({ opcode: 0x9, fin: false, payload: text('x') }), 1002],
      ['ping longer than 125 bytes', encodeFrame({ opcode: 0x9, payload: Buffer.alloc(126, 1) }), 1002],
      ['close with a one-byte body', encodeFrame({ opcode: 0x8, payload: Buffer.from([3]) }), 1002],
      ['close with status 999', encodeFrame({ opcode: 0x8, payload: closePayload(999) }), 1002],
      [
        'payload over maxPayload',
        encodeFrame({ opcode: 0x2, payload: Buffer.alloc(0), declaredLength: BigInt(MAX_FRAME_BYTES + 1) }),
        1009,
      ],
      ['length beyond 2^53', encodeFrame({ opcode: 0x1, payload: Buffer.alloc(0), declaredLength: 2n ** 63n }), 1009],
      ['text that is not UTF-8', encodeFrame({ opcode: 0x1, payload: Buffer.from([0x7b, 0xff, 0xfe, 0x7d]) }), 1007],
      [
        'close reason that is not UTF-8',
        encodeFrame({ opcode: 0x8, payload: closePayload(1000, Buffer.from([0xc3, 0x28])) }),
        1007,
      ],
      ['text that is not a call frame', encodeFrame({ opcode: 0x1, payload: text('{"kind":"nope"}') }), 1008],
      ['binary frame', encodeFrame({ opcode: 0x2, payload: validCall() }), 1008],
    ];
    for (const [label, bytes, code] of cases) {
      const outcome = await sendRaw(bytes);
      expect(outcome, label).toEqual({ closeCode: code, closed: true });
      await assertStillServing(label);
    }
    // A header cut short, and a body shorter than its length, then the client goes away.
    const truncated = encodeFrame({ opcode: 0x1, payload: validCall() });
    for (const [label, bytes] of [
      ['truncated 64-bit length', Buffer.from([0x81, 0xff, 0, 0, 0])],
      ['truncated 16-bit length', Buffer.from([0x81, 0xfe, 0x01])],
      ['body shorter than its length', truncated.subarray(0, truncated.length - 5)],
    ] as const) {
      expect((await sendRaw(bytes, { endAfter: true })).closed, label).toBe(true);
      await assertStillServing(label);
    }
  }, 60_000);

  it('survives a few hundred seeded random and mutated frames', async () => {
    const random = seededRandom(0xf00d);
    const pick = (n: number) => Math.floor(random() * n);
    const makeCase = (index: number): Buffer => {
      switch (index % 4) {
        case 0: {
          // Pure noise.
          const bytes = Buffer.alloc(1 + pick(64));
          for (let i = 0; i < bytes.length; i += 1) bytes[i] = pick(256);
          return bytes;
        }
        case 1: {
          // A valid call frame with a few bits of its header flipped.
          const bytes = encodeFrame({ opcode: 0x1, payload: validCall() });
          for (let flips = 1 + pick(3); flips > 0; flips -= 1) {
            const at = pick(6);
            bytes[at] = (bytes[at] as number) ^ (1 << pick(8));
          }
          return bytes;
        }
        case 2: {
          // A well-framed message of any opcode whose body is noise.
          const payload = Buffer.alloc(pick(200));
          for (let i = 0; i < payload.length; i += 1) payload[i] = pick(256);
          return encodeFrame({ opcode: pick(16), fin: random() < 0.8, rsv: random() < 0.1 ? pick(8) : 0, payload });
        }
        default: {
          // A valid frame followed by garbage in the same write.
          const tail = Buffer.alloc(1 + pick(16));
          for (let i = 0; i < tail.length; i += 1) tail[i] = pick(256);
          return Buffer.concat([encodeFrame({ opcode: 0x1, payload: validCall() }), tail]);
        }
      }
    };
    const cases = Array.from({ length: 320 }, (_, index) => makeCase(index));
    const closeCodes = new Map<number | undefined, number>();
    // Ten connections at a time: each case is checked on its own, and the whole run stays short.
    for (let start = 0; start < cases.length; start += 10) {
      await Promise.all(
        cases.slice(start, start + 10).map(async (bytes, offset) => {
          const outcome = await sendRaw(bytes, { waitMs: 300 });
          closeCodes.set(outcome.closeCode, (closeCodes.get(outcome.closeCode) ?? 0) + 1);
          await assertStillServing(`case ${start + offset}: ${bytes.toString('hex').slice(0, 80)}`);
        }),
      );
    }
    // The cases really were malformed: most of them ended in a protocol-error close.
    expect(closeCodes.get(1002) ?? 0).toBeGreaterThan(100);
    // A brand-new client is served too.
    const fresh = await openClient();
    expect(await ask(fresh)).toMatchObject({ ok: true });
    fresh.terminate();
  }, 120_000);
});
