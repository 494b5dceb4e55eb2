import { fileURLToPath, URL } from 'node:url';
import { defineConfig } from 'vitest/config';
import react from '@vitejs/plugin-react';

/** Where the API server listens in development (`npm run dev`); see the README's configuration. */
const apiOrigin = process.env.API_ORIGIN ?? 'http://127.0.0.1:8000';
const proxy = {
  '/api': apiOrigin,
  '/download_pdf_by_id': apiOrigin,
};

export default defineConfig({
  plugins: [react()],
  resolve: {
    alias: { '@': fileURLToPath(new URL('./src', import.meta.url)) },
  },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    // Hashed file names under assets/: the server caches them for a long time, index.html not at all.
    assetsDir: 'assets',
    sourcemap: false,
    // Every browser we support has <link rel=modulepreload>; the polyfill would cost home-page bytes.
    modulePreload: { polyfill: false },
  },
  server: { proxy },
  preview: { proxy },
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
