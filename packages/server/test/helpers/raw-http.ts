import http from 'node:http';
import net, { type AddressInfo } from 'node:net';
import type { TestApp } from './build.js';

/**
 * GET over a real socket with the path exactly as given: `inject` and fetch resolve `..` segments
 * before sending, so path tricks must take this road to reach the server unaltered.
 */
export async function rawGet(
  app: TestApp['app'],
  rawPath: string,
): Promise<{ status: number; body: string; headers: http.IncomingHttpHeaders }> {
  if (!app.server.listening) await app.listen({ host: '127.0.0.1', port: 0 });
  const { port } = app.server.address() as AddressInfo;
  return new Promise((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port, path: rawPath, method: 'GET', agent: false }, (res) => {
      let body = '';
      res.setEncoding('latin1');
      res.on('data', (chunk: string) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body, headers: res.headers }));
    });
    req.on('error', reject);
    req.end();
  });
}

/** Sends `bytes` as they are on a new connection and resolves with all the server wrote until it closed. */
export async function rawExchange(app: TestApp['app'], bytes: string): Promise<string> {
  if (!app.server.listening) await app.listen({ host: '127.0.0.1', port: 0 });
  const { port } = app.server.address() as AddressInfo;
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1', () => socket.write(bytes, 'latin1'));
    let answer = '';
    socket.setEncoding('latin1');
    socket.on('data', (chunk: string) => (answer += chunk));
    socket.on('close', () => resolve(answer));
    socket.on('error', reject);
  });
}
