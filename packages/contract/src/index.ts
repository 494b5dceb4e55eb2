export * from './paths.js';
export * from './types.js';
export * from './messages.js';
export * from './limits.js';
export * from './forms.js';
