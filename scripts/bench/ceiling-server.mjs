// The JSON ceiling, run as its own process: a bare node:http server that answers every request with
// the same bytes, from memory, that the product answered for the news list.
// Usage: node ceiling-server.mjs <port> <body file> <content-type>
import { readFileSync } from 'node:fs';
import http from 'node:http';

const [port, bodyFile, contentType] = process.argv.slice(2);
const body = readFileSync(bodyFile);
const headers = { 'content-type': contentType, 'content-length': String(body.length) };

const server = http.createServer((request, response) => {
  request.resume();
  response.writeHead(200, headers);
  response.end(body);
});
server.keepAliveTimeout = 60_000;
server.listen(Number(port), '127.0.0.1', () => console.log('ready'));
process.once('SIGTERM', () => server.close(() => process.exit(0)).closeAllConnections());
