// The JSON ceiling, run as its own process: a bare node:http server that answers every request with
// the same bytes, from memory, that the product answered for the news list: its headers (node:http
// adds Date and the keep-alive ones itself, as it does for the product) and its body.
// Usage: node ceiling-server.mjs <port> <body file> <headers file (JSON)>
import { readFileSync } from 'node:fs';
import http from 'node:http';

const [port, bodyFile, headersFile] = process.argv.slice(2);
const body = readFileSync(bodyFile);
const headers = { ...JSON.parse(readFileSync(headersFile, 'utf8')), 'content-length': String(body.length) };

const server = http.createServer((request, response) => {
  request.resume();
  response.writeHead(200, headers);
  response.end(body);
});
server.keepAliveTimeout = 60_000;
server.listen(Number(port), '127.0.0.1', () => console.log('ready'));
process.once('SIGTERM', () => server.close(() => process.exit(0)).closeAllConnections());
