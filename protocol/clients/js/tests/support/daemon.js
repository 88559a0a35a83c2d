// Starting the real daemon for the tests. There is deliberately no skip: when
// no binary is found, Client.start throws DaemonNotFoundError and the test fails.
import { fileURLToPath } from 'node:url';
import { Client } from '../../index.js';

export const fakeServer = fileURLToPath(new URL('./fake-server.js', import.meta.url));

/** The real daemon ($DIFFABLE_BIN, else the usual discovery). */
export function startDaemon(options = {}) {
  return Client.start({ args: ['--log-level', 'error'], timeout: 10_000, ...options });
}

/** The fake server, run by this very node binary. */
export function startFake(options = {}) {
  return Client.start({ daemon: [process.execPath, fakeServer], timeout: 5000, ...options });
}
