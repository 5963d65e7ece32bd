import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

const api = process.env.SIGHTLINE_API ?? 'http://localhost:3000';

export default defineConfig({
  plugins: [react()],
  server: {
    port: 5173,
    proxy: {
      '/v1/realtime': { target: api, ws: true, changeOrigin: true },
      '/v1': { target: api, changeOrigin: true },
      '/api_v1': { target: api, changeOrigin: true },
      '/api': { target: api, changeOrigin: true },
      '/alive': { target: api, changeOrigin: true },
    },
  },
  build: {
    outDir: 'dist',
    sourcemap: true,
    chunkSizeWarningLimit: 800,
    rollupOptions: {
      // The contracts package only declares schemas and constants; marking its modules free of side
      // effects keeps zod (used by a few lazy pages) out of the startup bundle.
      treeshake: { moduleSideEffects: (id) => !/packages[\\/]contracts[\\/]src[\\/]/.test(id) },
    },
  },
});
