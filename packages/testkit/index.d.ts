export * from './postgres.js';
export * from './smtp-peer.js';
export * from './chromium.js';
export * from './ports.js';
