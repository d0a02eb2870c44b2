/**
 * The server's render of /home's first screen (src/client/app/first-screen.server.tsx), built
 * apart from the client (`npm run build:ssr`, into dist/ssr): the client's bundle and its service
 * worker's precache carry none of it. One file with its packages in it, React's production build
 * (the server runs without NODE_ENV); stylesheets are the client build's, inlined in the page, so
 * none is written here.
 */
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

export default defineConfig({
  root: '.',
  publicDir: false,
  plugins: [react()],
  define: { 'process.env.NODE_ENV': JSON.stringify('production') },
  ssr: { noExternal: true },
  build: {
    ssr: 'src/client/app/first-screen.server.tsx',
    outDir: 'dist/ssr',
    emptyOutDir: true,
    sourcemap: true,
    target: 'node20',
    rolldownOptions: { output: { entryFileNames: 'first-screen.js' } },
  },
});
