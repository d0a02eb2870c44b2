/**
 * Backups of a PGlite folder while its server runs. Only the process that has the folder open
 * can read it consistently (its pages live in that process's memory), so the server makes the
 * dump and `npm run backup` asks it for one.
 *
 * A Unix socket beside DATA_DIR (`<DATA_DIR>.admin.sock`), not a port: nothing on the network can
 * reach it, and only the folder's owner can connect (mode 0600). Not inside the folder: PGlite's
 * dump walks every file there and fails on a socket. It serves one request a connection:
 * "backup\n", answered "ok\n" then the gzip tarball; and `npm run moderator`'s commands,
 * "moderator add|remove <phone or uid>\n" or "moderator list\n", answered "ok\n" then the text
 * to print. A failure is "error <message>\n".
 */
import { once } from 'node:events';
import { chmod, unlink } from 'node:fs/promises';
import { createConnection, createServer, type Server, type Socket } from 'node:net';
import { resolve } from 'node:path';

/** Where the server that has `dataDir` open listens for backup requests. */
export const backupSocketPath = (dataDir: string) => `${resolve(dataDir)}.admin.sock`;
const REQUEST = 'backup\n';
/** The longest request line read: a command and its argument. */
const MAX_REQUEST = 256;
const MODERATOR_REQUEST = /^moderator((?: \S+){1,2})\n$/;

/** Runs one of `npm run moderator`'s commands (services/moderators.ts) on the open database: the text to print. */
export type ModeratorCommand = (args: string[]) => Promise<string>;

/**
 * Listens on backupSocketPath(dataDir) for backup requests, each answered with `dump()`, and
 * moderator commands, each run by `moderator`. The caller holds the folder's lock, so a socket
 * file already there was left by a process that died. Returns the close, which removes the socket file.
 */
export async function serveBackups(
  dataDir: string,
  dump: () => Promise<Blob>,
  onError: (error: Error) => void,
  moderator?: ModeratorCommand,
): Promise<() => Promise<void>> {
  const path = backupSocketPath(dataDir);
  await unlink(path).catch(() => undefined);
  const server: Server = createServer((socket) => void answer(socket, dump, onError, moderator).catch(onError));
  server.listen(path);
  await once(server, 'listening');
  await chmod(path, 0o600);
  return async () => {
    await new Promise<void>((resolve) => server.close(() => resolve()));
    await unlink(path).catch(() => undefined);
  };
}

async function answer(socket: Socket, dump: () => Promise<Blob>, onError: (error: Error) => void, moderator?: ModeratorCommand): Promise<void> {
  socket.on('error', () => undefined); // a client that went away: nothing to tell it
  socket.setTimeout(10_000, () => socket.destroy());
  // Read with a listener, not for-await: leaving a for-await loop early destroys the socket.
  const received = await new Promise<string>((resolve) => {
    let text = '';
    const onData = (chunk: Buffer) => {
      text += chunk.toString('utf8');
      if (!text.includes('\n') && text.length < MAX_REQUEST) return;
      socket.off('data', onData);
      resolve(text);
    };
    socket.on('data', onData);
    socket.once('close', () => resolve(text));
  });
  if (socket.destroyed) return;
  socket.setTimeout(0);
  const command = MODERATOR_REQUEST.exec(received);
  if (command && moderator) {
    // The operator's mistakes (an unknown user) and failures alike go back to the tool, which prints them.
    const answered = await moderator(command[1]!.trim().split(' ')).then(
      (text) => `ok\n${text}\n`,
      (error: unknown) => `error ${(error instanceof Error ? error.message : String(error)).split('\n')[0]}\n`,
    );
    socket.end(answered);
    return;
  }
  if (received !== REQUEST) {
    socket.end(`error unknown request\n`);
    return;
  }
  try {
    const tarball = await dump();
    socket.write('ok\n');
    socket.end(Buffer.from(await tarball.arrayBuffer()));
  } catch (error) {
    // PGlite's file errors (ErrnoError) carry no message: their name and errno say what failed.
    const failure = error instanceof Error ? error : new Error(String(error));
    onError(failure);
    const text = failure.message || `${failure.name} ${String((error as { errno?: unknown }).errno ?? '')}`;
    socket.end(`error ${text.split('\n')[0]}\n`);
  }
}

/** Asks the server that has `dataDir` open for a backup: resolves with the socket streaming the tarball. */
export async function requestBackup(dataDir: string, timeoutMs = 120_000): Promise<AsyncIterable<Buffer>> {
  const socket = createConnection(backupSocketPath(dataDir));
  socket.setTimeout(timeoutMs, () => socket.destroy(new Error(`no answer within ${timeoutMs / 1000} s`)));
  await once(socket, 'connect');
  socket.write(REQUEST);
  // The status line, then whatever came with it is the tarball's start.
  let head = Buffer.alloc(0);
  let newline = -1;
  const reader = socket[Symbol.asyncIterator]() as AsyncIterator<Buffer>;
  while (newline < 0) {
    const next = await reader.next();
    if (next.done) throw new Error('the server closed the connection without answering');
    head = Buffer.concat([head, next.value]);
    newline = head.indexOf(0x0a);
  }
  const status = head.subarray(0, newline).toString('utf8');
  if (status !== 'ok') {
    socket.destroy();
    throw new Error(status.replace(/^error /, ''));
  }
  const rest = head.subarray(newline + 1);
  return (async function* () {
    if (rest.length > 0) yield rest;
    for (let next = await reader.next(); !next.done; next = await reader.next()) yield next.value;
  })();
}

/**
 * Asks the server that has `dataDir` open to run one of `npm run moderator`'s commands: its text
 * when it ran (ok), or its error message; rejects when the server cannot be asked.
 */
export async function requestModeratorCommand(dataDir: string, args: readonly string[], timeoutMs = 30_000): Promise<{ ok: boolean; text: string }> {
  const socket = createConnection(backupSocketPath(dataDir));
  socket.setTimeout(timeoutMs, () => socket.destroy(new Error(`no answer within ${timeoutMs / 1000} s`)));
  await once(socket, 'connect');
  socket.write(`moderator ${args.join(' ')}\n`);
  let text = '';
  for await (const chunk of socket) text += (chunk as Buffer).toString('utf8');
  const newline = text.indexOf('\n');
  if (newline < 0) throw new Error('the server closed the connection without answering');
  const status = text.slice(0, newline);
  if (status === 'ok') return { ok: true, text: text.slice(newline + 1).replace(/\n$/, '') };
  return { ok: false, text: status.replace(/^error /, '') };
}
