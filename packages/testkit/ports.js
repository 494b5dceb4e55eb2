// @ts-check
import { createServer } from 'node:net';

/**
 * A TCP port that was free a moment ago: the OS picks it (listen on port 0), we release it and
 * hand back the number. Another process could take it in between; on a test machine that is rare
 * enough, and every caller that binds it reports the failure plainly.
 * @param {string} [host]
 * @returns {Promise<number>}
 */
export function freePort(host = '127.0.0.1') {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.once('error', reject);
    server.listen({ port: 0, host, exclusive: true }, () => {
      const address = server.address();
      if (address === null || typeof address === 'string') {
        server.close();
        reject(new Error('freePort: the OS did not report a TCP port'));
        return;
      }
      server.close(() => resolve(address.port));
    });
  });
}
