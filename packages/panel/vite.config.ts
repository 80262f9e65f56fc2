import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

// `npm run dev -w @autosales/panel` serves the panel with hot reload and forwards the server's routes to a
// locally running `autosales serve` (AUTOSALES_DEV_SERVER, default http://127.0.0.1:3000).
const server = process.env.AUTOSALES_DEV_SERVER ?? 'http://127.0.0.1:3000';

export default defineConfig({
  plugins: [react()],
  base: '/',
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    // Served with `immutable` caching: every file but index.html carries a content hash.
    assetsDir: 'assets',
    sourcemap: false,
    chunkSizeWarningLimit: 400,
    rolldownOptions: {
      output: {
        // The framework in a chunk of its own: it changes far less often than the app, so browsers keep it cached across releases.
        codeSplitting: {
          groups: [{ name: 'framework', test: /node_modules[\\/](react|react-dom|scheduler|react-router|@tanstack|cookie|set-cookie-parser)[\\/]/ }],
        },
      },
    },
  },
  server: {
    host: '127.0.0.1',
    proxy: {
      '/panel/api': { target: server, changeOrigin: false },
      '/api': { target: server, changeOrigin: false },
    },
  },
});
