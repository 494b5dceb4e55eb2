import { fileURLToPath, URL } from 'node:url';
import { defineConfig } from 'vitest/config';
import react from '@vitejs/plugin-react';

// Separate from vite.config.ts: vitest runs on the hoisted vite 8, the app builds with vite 7, and
// mixing their config types in one file does not type-check.
export default defineConfig({
  plugins: [react()],
  resolve: {
    alias: { '@': fileURLToPath(new URL('./src', import.meta.url)) },
  },
  test: {
    environment: 'jsdom',
    setupFiles: ['./test/setup.ts'],
    include: ['src/**/*.test.{ts,tsx}', 'test/**/*.test.{ts,tsx}'],
    restoreMocks: true,
    // A form test types and clicks through user-event, about a second here; on a CI machine whose
    // CPU is mostly taken by its neighbours it took over 5 s (vitest's default limit) and failed.
    testTimeout: 30_000,
    unstubGlobals: true,
    // jsdom starts at about:blank; an http origin gives localStorage and relative fetch URLs.
    environmentOptions: { jsdom: { url: 'http://localhost/' } },
  },
});
