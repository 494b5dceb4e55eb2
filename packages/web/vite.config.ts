import { fileURLToPath, URL } from 'node:url';
import { defineConfig, type PluginOption } from 'vite';
import react from '@vitejs/plugin-react';

/** Where the API server listens in development (`npm run dev`); see CONTRACT.md section 1. */
const apiOrigin = process.env.API_ORIGIN ?? 'http://127.0.0.1:8000';
const proxy = {
  '/api': apiOrigin,
  '/download_pdf_by_id': apiOrigin,
};

// plugin-react's type declarations resolve the hoisted vite 8 (pulled in by vitest) while this
// package builds with vite 7; the plugin supports both at run time, only the types disagree.
const reactPlugin = react() as unknown as PluginOption;

export default defineConfig({
  plugins: [reactPlugin],
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
});
