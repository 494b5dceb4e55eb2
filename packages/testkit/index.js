// @ts-check
export { startPostgres, findPostgresBinaries } from './postgres.js';
export { startSmtpPeer } from './smtp-peer.js';
export { findChromium, launchChromium, chromiumArgs, SYSTEM_CHROMIUM_PATHS } from './chromium.js';
export { freePort } from './ports.js';
