export * from './paths.js';
export * from './types.js';
export * from './account-bodies.js';
export * from './news-bodies.js';
export * from './error-bodies.js';
export * from './messages.js';
export * from './limits.js';
export * from './forms.js';
