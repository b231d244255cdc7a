/// <reference types="vitest/config" />
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

const gateway = 'http://localhost:3000';
// Resolved without node:url so this file type-checks with the browser tsconfig.
const fromHere = (path: string) => decodeURIComponent(new URL(path, import.meta.url).pathname);

export default defineConfig({
  plugins: [react()],
  resolve: {
    alias: {
      '@tollgate/contracts': fromHere('../libs/contracts/src'),
      '@': fromHere('./src'),
    },
  },
  server: {
    port: 5173,
    // Dev mode: Vite serves the console with hot reload, the gateway answers everything else.
    proxy: {
      '/api': gateway,
      '/v1': gateway,
      '/pg': gateway,
      '/socket.io': { target: gateway, ws: true },
    },
  },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    rolldownOptions: {
      output: {
        // Libraries change less often than the console: separate files cache longer.
        codeSplitting: {
          groups: [
            {
              name: 'react',
              test: /node_modules[\\/](react|react-dom|react-router|scheduler)[\\/]/,
              priority: 3,
            },
            // Only the lazily loaded dashboard uses these: kept out of the start-up files.
            {
              name: 'charts',
              test: /node_modules[\\/](recharts|@mantine[\\/]charts|d3-[a-z-]+|victory-vendor|decimal\.js-light)[\\/]/,
              priority: 4,
              // Not react's jsx runtime and the like, which the console needs at start.
              includeDependenciesRecursively: false,
            },
            { name: 'mantine', test: /node_modules[\\/]@mantine[\\/]/, priority: 2 },
            { name: 'vendor', test: /node_modules[\\/]/, priority: 1 },
          ],
        },
      },
    },
  },
  test: {
    environment: 'jsdom',
    setupFiles: ['./src/test/setup.ts'],
    include: ['src/**/*.test.{ts,tsx}'],
    css: false,
    // Typing through Mantine inputs is slow on the shared 2-core machine; 5 s timed out under load.
    testTimeout: 20_000,
  },
});
